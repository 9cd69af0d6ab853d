//! Handing freed memory back to the system: what a budget of memory needs beside the
//! engines' own accounting, since an allocator may keep what they free.

/// Hands the free memory at the top of the allocator's heaps, and its free pages inside
/// them, back to the system (glibc's `malloc_trim`); elsewhere than Linux with glibc it does
/// nothing.
///
/// glibc keeps freed blocks under its mapping threshold (which rises to the largest block
/// freed, up to 32 MB) for reuse, so a process holds the most its heap ever held: a count
/// whose passes shrink as its levels grow (see `count::winnable`) kept its first passes'
/// room beside the later levels and went 12% past its budget. The count calls this between
/// passes; the server calls it when a large answer is done, and a catalog after each problem.
pub fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes the allocator's locks itself; any pad is valid.
    unsafe {
        libc::malloc_trim(0);
    }
}
