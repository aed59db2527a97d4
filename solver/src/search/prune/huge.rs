//! The large machines' transition table in anonymous memory advised to use 2 MiB pages: a
//! search steps through tens of megabytes of rows at random, and with 4 KiB pages nearly every
//! step would also miss the TLB.

use std::ops::Deref;

/// A `u32` table in huge-page memory where the system offers it (Linux's transparent huge
/// pages, asked for with `madvise`), else on the heap; it reads as a `[u32]`.
pub(super) struct HugeWords {
    map: Option<memmap2::MmapMut>,
    heap: Vec<u32>,
    len: usize,
}

impl HugeWords {
    /// Whether the entries live in the advised anonymous mapping (not on the heap).
    pub(super) fn is_mapped(&self) -> bool {
        self.map.is_some()
    }
}

impl From<Vec<u32>> for HugeWords {
    /// The entries of `values`, copied into a fresh anonymous mapping (kept on the heap when
    /// the mapping cannot be made: huge pages are only a speed-up).
    fn from(values: Vec<u32>) -> HugeWords {
        let len = values.len();
        let bytes = len * std::mem::size_of::<u32>();
        let Ok(mut map) = memmap2::MmapOptions::new().len(bytes.max(1)).map_anon() else {
            return HugeWords {
                map: None,
                heap: values,
                len,
            };
        };
        #[cfg(target_os = "linux")]
        {
            // Only a hint: without transparent huge pages everything works the same.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        for (chunk, v) in map.chunks_exact_mut(4).zip(&values) {
            chunk.copy_from_slice(&v.to_ne_bytes());
        }
        HugeWords {
            map: Some(map),
            heap: Vec::new(),
            len,
        }
    }
}

impl Deref for HugeWords {
    type Target = [u32];
    #[inline(always)]
    fn deref(&self) -> &[u32] {
        match &self.map {
            // SAFETY: the mapping is page-aligned (so aligned for u32), at least `len * 4`
            // bytes long, initialised (zeroed, then filled), lives as long as `self`, and is
            // only ever read through this shared slice once built.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<u32>(), self.len) },
            None => &self.heap,
        }
    }
}

impl Clone for HugeWords {
    fn clone(&self) -> HugeWords {
        HugeWords::from(self.to_vec())
    }
}

impl std::fmt::Debug for HugeWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeWords")
            .field("len", &self.len)
            .field("mapped", &self.is_mapped())
            .finish()
    }
}
