//! A counting global allocator: the heap now and its peak since `reset`. Included by path
//! (`#[path]`) by the binaries that measure memory (`tests/memory.rs`,
//! `examples/memory.rs`); a binary that includes it counts every allocation it makes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        PEAK.fetch_max(NOW.fetch_add(l.size(), Relaxed) + l.size(), Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Bytes allocated now.
pub fn now() -> usize {
    NOW.load(Relaxed)
}

/// The peak so far, from now on counted from the heap as it is.
pub fn reset() -> usize {
    let base = now();
    PEAK.store(base, Relaxed);
    base
}

/// The highest the heap has been since `reset`.
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}
