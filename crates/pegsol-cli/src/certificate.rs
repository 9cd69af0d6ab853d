//! Certificate files: a proof of impossibility as JSON that code sharing nothing with the
//! solver can check (`pegsol verify`, or the Python script in `docs/`). The format is in
//! `docs/certificates.md`; the library builds the file (`pegsol::answer::CertificateFile`).

use std::path::Path;

use anyhow::{Context, Result};
use pegsol::answer::CertificateFile;
use pegsol::check::Certificate;
use pegsol::Problem;

/// Writes the certificate file.
pub(crate) fn write(path: &Path, problem: &Problem, c: &Certificate) -> Result<()> {
    let text = serde_json::to_string(&CertificateFile::of(problem, c))?;
    std::fs::write(path, text + "\n")
        .with_context(|| format!("cannot write the certificate to {}", path.display()))
}
