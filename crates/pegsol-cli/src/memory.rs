//! The allocator setting batch commands use. (The library sets nothing process-wide; the
//! binary does.)

/// Asks the allocator to keep the memory a count frees for its next level instead of handing
/// it back to the kernel. Every level allocates and frees about as much as the count holds at
/// its peak; on glibc, blocks that large are mapped afresh each time and every page of them
/// faults in zeroed, which took about a fifth of `pegsol count english`. After this call,
/// blocks under 32 MB come from the heap, the heap is not trimmed, and it grows 256 MB at a
/// time, so a count keeps about 50 MB more at its peak. It affects the whole process, so
/// `main` calls it for every command but `serve`; elsewhere than Linux with glibc it does
/// nothing.
pub(crate) fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets parameters of the allocator, under its own lock; any value is
    // valid for these three.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 256 << 20);
    }
}
