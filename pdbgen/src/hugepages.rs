//! Large tables backed by 2 MiB pages: a hint to the kernel that cuts the TLB misses of the
//! BFS's random claims (on Linux with transparent huge pages in `madvise` mode).

/// A vector of `len` copies of `value`, whose memory the kernel is asked to back with huge
/// pages before it is first touched. Elsewhere (or if the kernel declines) it is a plain vector.
pub fn filled_vec<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge(v.as_mut_ptr().cast(), len * std::mem::size_of::<T>());
    v.resize(len, value);
    v
}

/// Below this size a table gains nothing from huge pages.
const MIN_BYTES: usize = 4 << 20;

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    /// `MADV_HUGEPAGE` from the Linux headers (asm-generic/mman-common.h).
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    if bytes < MIN_BYTES {
        return;
    }
    // madvise wants a page-aligned start; advise the whole pages inside the allocation.
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + bytes) / PAGE * PAGE;
    if end > start {
        // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE changes
        // how the kernel backs it, never its contents. A failure only means no huge pages.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    #[test]
    fn filled_vec_holds_the_value() {
        for len in [0, 1, 1000, (5 << 20) / 8 + 3] {
            let v = super::filled_vec(len, u64::MAX);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == u64::MAX));
        }
    }
}
