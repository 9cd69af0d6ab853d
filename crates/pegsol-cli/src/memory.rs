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

/// Bounds the allocator's arenas for the server. glibc gives each new thread that contends
/// for the heap an arena of its own, up to eight per core; the server's request threads
/// (tokio's, the lanes', the winning-set builder) spread their allocations over all of them,
/// and the freed holes in each are kept: under repeated load the resident memory climbed
/// run after run (271, 514, 590, 673 MB idle after three 60 s load runs). Two arenas, as
/// `MALLOC_ARENA_MAX=2` would set, keep it level. Must run before any thread is started.
/// Elsewhere than Linux with glibc it does nothing.
pub(crate) fn bound_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator, under its own lock.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// One arena for every thread, for the count on timely workers. A count keeps its levels in
/// the thread that runs it: the main thread in one process, whose heap reuses what a level
/// frees (see [`keep_freed_memory`]), but a timely worker thread on a cluster, whose arena of
/// its own maps every block over 32 MB afresh, so that every page of every level faulted in
/// zeroed again (a sixth of the time of `cluster-local 2 count english`). With one arena the
/// workers' levels come from the main heap like the single process's: 4.9-5.0 s against
/// 5.6-7.1 s, and 0.8 GB against 0.9 GB a process (both with timely's one-second start,
/// since removed). Must run before any thread is started.
/// Elsewhere than Linux with glibc it does nothing.
pub(crate) fn one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator, under its own lock.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
