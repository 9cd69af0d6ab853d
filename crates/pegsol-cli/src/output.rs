//! Standard output for the commands: `print!` and `println!` that end the program quietly
//! when the reader goes away (`| head`), and a buffered writer for long answers.

/// Writes to standard output like the standard macro, but a reader that went away (`| head`)
/// ends the program quietly with success instead of a panic, and any other write error is
/// reported with exit code 2.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::output::stdout_write(format_args!($($arg)*))
    };
}

/// [`print!`] with a newline.
macro_rules! println {
    () => {
        print!("\n")
    };
    ($($arg:tt)*) => {{
        print!("{}\n", format_args!($($arg)*))
    }};
}

/// The body of [`print!`].
pub(crate) fn stdout_write(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(i32::from(crate::common::BAD_INPUT));
    }
}

/// Buffered standard output for long answers: numbers written without allocating, and the
/// first write error kept (to be returned by [`Out::finish`]) so that callbacks need not
/// return one.
pub(crate) struct Out {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    numbers: itoa::Buffer,
    error: Option<std::io::Error>,
}

impl Out {
    pub(crate) fn new() -> Out {
        Out {
            out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            numbers: itoa::Buffer::new(),
            error: None,
        }
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        use std::io::Write;
        if self.error.is_none() {
            self.error = self.out.write_all(b).err();
        }
    }

    pub(crate) fn text(&mut self, t: &str) {
        self.bytes(t.as_bytes());
    }

    pub(crate) fn number(&mut self, n: usize) {
        use std::io::Write;
        if self.error.is_none() {
            let text = self.numbers.format(n);
            self.error = self.out.write_all(text.as_bytes()).err();
        }
    }

    /// `a`, `sep`, `b`, `close`.
    pub(crate) fn pair(&mut self, a: usize, sep: &[u8], b: usize, close: &[u8]) {
        self.number(a);
        self.bytes(sep);
        self.number(b);
        self.bytes(close);
    }

    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write;
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}
