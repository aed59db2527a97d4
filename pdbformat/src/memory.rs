//! Memory for large tables: anonymous mappings and vectors advised to use 2 MiB pages (fewer
//! TLB misses on random lookups, on Linux with transparent huge pages in `madvise` mode), and
//! the read prefetch of the lookups that follow. Huge pages are only a hint here: where the
//! system declines them, everything works the same on 4 KiB pages.

use std::ops::Deref;

/// The page size a mapping asks the kernel for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    /// Ordinary 4 KiB pages (transparent huge pages declined explicitly).
    Small,
    /// 2 MiB pages where the system offers them.
    Huge,
}

/// Below this size a table gains nothing from huge pages.
const MIN_HUGE_BYTES: usize = 4 << 20;

/// The size of a huge page (x86-64 and AArch64 with 4 KiB base pages).
const HUGE_PAGE: usize = 2 << 20;

/// A zeroed anonymous mapping of at least `len` bytes (at least one page) advised to use
/// `pages`. A request for huge pages of at least 4 MiB is rounded up to whole 2 MiB pages:
/// Linux places an anonymous mapping of whole huge pages on a 2 MiB boundary (since 6.12;
/// earlier kernels place it anywhere), so that every page of it can be a huge page, not only
/// those that happen to lie between the first and the last 2 MiB boundary inside it.
///
/// ```
/// use pdbformat::memory::{anonymous, Pages};
/// let map = anonymous(1 << 20, Pages::Huge).unwrap();
/// assert!(map.len() >= 1 << 20 && map.iter().all(|&b| b == 0));
/// let map = anonymous(5 << 20, Pages::Huge).unwrap();
/// assert_eq!(map.len(), 6 << 20);
/// ```
pub fn anonymous(len: usize, pages: Pages) -> std::io::Result<memmap2::MmapMut> {
    let len = match pages {
        Pages::Huge if len >= MIN_HUGE_BYTES => len.next_multiple_of(HUGE_PAGE),
        _ => len.max(1),
    };
    let map = memmap2::MmapOptions::new().len(len).map_anon()?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without transparent huge pages both kinds are 4 KiB pages.
        let _ = map.advise(match pages {
            Pages::Small => memmap2::Advice::NoHugePage,
            Pages::Huge => memmap2::Advice::HugePage,
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pages;
    Ok(map)
}

/// A vector of `len` copies of `value`, whose memory the kernel is asked to back with huge
/// pages before it is first touched (vectors under 4 MiB are not worth it). Elsewhere, or if
/// the kernel declines, it is a plain vector.
///
/// ```
/// let v = pdbformat::memory::huge_vec(1000, 7u64);
/// assert!(v.len() == 1000 && v.iter().all(|&x| x == 7));
/// ```
pub fn huge_vec<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge(v.as_mut_ptr().cast(), len * std::mem::size_of::<T>());
    v.resize(len, value);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    if bytes < MIN_HUGE_BYTES {
        return;
    }
    // madvise wants a page-aligned start; advise the whole pages inside the allocation.
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + bytes) / PAGE * PAGE;
    if end > start {
        // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE changes
        // how the kernel backs it, never its contents. A failure only means no huge pages.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: *mut u8, _bytes: usize) {}

/// A read-only table of plain numbers in huge-page memory where the system offers it, else
/// on the heap; it reads as a `[T]`.
pub struct HugeTable<T: Copy> {
    map: Option<memmap2::MmapMut>,
    heap: Vec<T>,
    len: usize,
}

/// The plain number types a [`HugeTable`] holds: any bit pattern is a value, and their
/// alignment divides a page's.
pub trait Plain: Copy + Default + sealed::Sealed {}
impl Plain for u8 {}
impl Plain for u16 {}
impl Plain for u32 {}
impl Plain for u64 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

impl<T: Plain> HugeTable<T> {
    /// Whether the entries live in the advised anonymous mapping (not on the heap).
    pub fn is_mapped(&self) -> bool {
        self.map.is_some()
    }

    /// A table of `len` values that `fill` writes in place, into zeroed memory (a fresh
    /// anonymous mapping, or the heap when the mapping cannot be made): values decoded from a
    /// file go straight to their place, without a vector of them to copy from.
    ///
    /// ```
    /// let t = pdbformat::memory::HugeTable::<u32>::filled(1000, |t| {
    ///     for (i, v) in t.iter_mut().enumerate() {
    ///         *v = i as u32 * 3;
    ///     }
    /// });
    /// assert_eq!((t.len(), t[999]), (1000, 2997));
    /// ```
    pub fn filled(len: usize, fill: impl FnOnce(&mut [T])) -> HugeTable<T> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("a table that fits the address space");
        let Ok(mut map) = anonymous(bytes, Pages::Huge) else {
            let mut heap = vec![T::default(); len];
            fill(&mut heap);
            return HugeTable {
                map: None,
                heap,
                len,
            };
        };
        // SAFETY: the mapping is page-aligned (so aligned for any `Plain` type), at least
        // `bytes` long, zeroed (a valid `Plain` value everywhere) and exclusively ours for the
        // slice's lifetime.
        let values = unsafe { std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), len) };
        fill(values);
        HugeTable {
            map: Some(map),
            heap: Vec::new(),
            len,
        }
    }
}

impl<T: Plain> From<Vec<T>> for HugeTable<T> {
    /// The entries of `values`, copied into a fresh anonymous mapping (kept on the heap when
    /// the mapping cannot be made: huge pages are only a speed-up).
    fn from(values: Vec<T>) -> HugeTable<T> {
        let len = values.len();
        let bytes = std::mem::size_of_val(values.as_slice());
        let Ok(mut map) = anonymous(bytes, Pages::Huge) else {
            return HugeTable {
                map: None,
                heap: values,
                len,
            };
        };
        // SAFETY: the mapping is page-aligned (so aligned for any `Plain` type), at least
        // `bytes` long and exclusively ours; the source is a distinct heap allocation.
        unsafe {
            std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u8>(), map.as_mut_ptr(), bytes);
        }
        HugeTable {
            map: Some(map),
            heap: Vec::new(),
            len,
        }
    }
}

impl<T: Plain> Deref for HugeTable<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        match &self.map {
            // SAFETY: the mapping is page-aligned (so aligned for T), at least `len` values
            // long, initialised (zeroed, then filled), lives as long as `self`, and is only
            // ever read through this shared slice once built; every bit pattern is a `Plain`.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<T>(), self.len) },
            None => &self.heap,
        }
    }
}

impl<T: Plain> Clone for HugeTable<T> {
    fn clone(&self) -> HugeTable<T> {
        HugeTable::from(self.to_vec())
    }
}

impl<T: Plain> std::fmt::Debug for HugeTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeTable")
            .field("len", &self.len)
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

/// A read prefetch of the cache line holding `p` (a hint: it never faults, whatever the
/// address), so that a lookup's line travels from memory while other work goes on.
#[inline(always)]
pub fn prefetch_read(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and never reads or writes memory
    // observably, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_vec_holds_the_value() {
        for len in [0, 1, 1000, (5 << 20) / 8 + 3] {
            let v = huge_vec(len, u64::MAX);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == u64::MAX));
        }
    }

    #[test]
    fn huge_tables_read_back_their_values() {
        for len in [0usize, 1, 5, 3 << 20] {
            let values: Vec<u32> = (0..len as u32)
                .map(|i| i.wrapping_mul(2_654_435_761))
                .collect();
            let t = HugeTable::from(values.clone());
            assert_eq!(&t[..], &values[..]);
            assert_eq!(&t.clone()[..], &values[..]);
        }
    }

    #[test]
    fn anonymous_memory_is_zeroed_in_both_page_kinds() {
        for pages in [Pages::Small, Pages::Huge] {
            let m = anonymous(8 << 20, pages).unwrap();
            assert!(m.len() >= 8 << 20);
            assert!(m.iter().step_by(4096).all(|&b| b == 0));
        }
    }
}
