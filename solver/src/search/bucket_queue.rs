//! Open lists for A*: a binary heap for any heuristic, and bucket queues for heuristics whose
//! estimate changes by at most 1 per move.
//!
//! # When buckets are valid
//! Every move costs 1. If a heuristic's estimate changes by at most 1 per move
//! ([`StepChange::AtMostOne`]), it is consistent, `f = g + h` changes by 0, 1 or 2 along an
//! edge and never decreases, so the smallest open `f` never decreases either: an array of
//! buckets indexed by `f` with a pointer that only moves up pops nodes in order of `f`
//! ([`BucketQueue`]). If the estimate changes by exactly 1 ([`StepChange::ExactlyOne`]:
//! Manhattan distance, a zero-aware database sum covering every tile), `f` changes by 0 or 2,
//! so only the values `f_min` and `f_min + 2` are ever open at once and two stacks suffice
//! ([`TwoBucketQueue`]). A maximum of such heuristics (the reflected lookup, several
//! partitions) changes by at most 1, not exactly 1: it gets the general bucket queue.
//! Linear conflict and zero-unaware databases can change by more than 1; they get the
//! [`HeapQueue`] and A* reopens closed nodes when it finds a shorter path to them.
//!
//! # Ties
//! Among nodes of equal `f`, the heap pops the smallest `h` first (the deepest node); the
//! bucket queues pop the most recently pushed one first (a stack), which also favours the
//! deepest nodes: a child with the same `f` as its parent is popped right after it.
//!
//! [`StepChange::AtMostOne`]: crate::heuristic::StepChange::AtMostOne
//! [`StepChange::ExactlyOne`]: crate::heuristic::StepChange::ExactlyOne

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A priority queue of positions for A*: priority (smaller first), a tie-breaker (smaller
/// first), and the path cost `g` the entry was pushed with (so that stale entries can be
/// recognised when popped).
pub trait OpenList<K> {
    /// Adds `key` with cost `g` at priority `prio`, ties broken by `tie`.
    fn push(&mut self, prio: u64, tie: u32, g: u32, key: K);
    /// Removes an entry of the smallest priority: `(prio, g, key)`.
    fn pop(&mut self) -> Option<(u64, u32, K)>;
    /// Entries held (stale ones included).
    #[cfg(test)]
    fn len(&self) -> usize;
    /// Whether no entry is held.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The smallest priority held, if any.
    fn min_prio(&mut self) -> Option<u64>;
    /// Bytes held now, and at the peak of the next push (when a buffer grows, the old and
    /// the new one coexist).
    fn bytes(&self) -> (u64, u64);
    /// Removes every entry: `(g, key)` pairs in no particular order.
    fn drain_all(&mut self) -> Vec<(u32, K)>;
    /// A short name for reports.
    fn name(&self) -> &'static str;
}

/// Bytes of a vector of `cap` items of `T`, now and after one more push.
fn vec_bytes<T>(len: usize, cap: usize) -> (u64, u64) {
    let size = std::mem::size_of::<T>() as u64;
    let now = cap as u64 * size;
    if len == cap {
        (now, now + (cap.max(4) as u64 * 2) * size)
    } else {
        (now, now)
    }
}

/// One heap entry, ordered so that the standard max-heap pops the smallest `(prio, tie)`
/// (also the anytime search's open list).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item<K> {
    pub(crate) prio: u64,
    pub(crate) tie: u32,
    pub(crate) g: u32,
    pub(crate) key: K,
}

impl<K> PartialEq for Item<K> {
    fn eq(&self, other: &Self) -> bool {
        (self.prio, self.tie) == (other.prio, other.tie)
    }
}
impl<K> Eq for Item<K> {}
impl<K> PartialOrd for Item<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<K> Ord for Item<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.prio, other.tie).cmp(&(self.prio, self.tie))
    }
}

/// A binary heap: valid for any priorities.
#[derive(Debug)]
pub struct HeapQueue<K> {
    heap: BinaryHeap<Item<K>>,
}

impl<K> Default for HeapQueue<K> {
    fn default() -> Self {
        HeapQueue {
            heap: BinaryHeap::new(),
        }
    }
}

impl<K: Copy> OpenList<K> for HeapQueue<K> {
    fn push(&mut self, prio: u64, tie: u32, g: u32, key: K) {
        self.heap.push(Item { prio, tie, g, key });
    }
    fn pop(&mut self) -> Option<(u64, u32, K)> {
        self.heap.pop().map(|i| (i.prio, i.g, i.key))
    }
    #[cfg(test)]
    fn len(&self) -> usize {
        self.heap.len()
    }
    fn min_prio(&mut self) -> Option<u64> {
        self.heap.peek().map(|i| i.prio)
    }
    fn bytes(&self) -> (u64, u64) {
        vec_bytes::<Item<K>>(self.heap.len(), self.heap.capacity())
    }
    fn drain_all(&mut self) -> Vec<(u32, K)> {
        self.heap.drain().map(|i| (i.g, i.key)).collect()
    }
    fn name(&self) -> &'static str {
        "binary heap"
    }
}

/// Buckets indexed by priority, each a stack; the pointer to the lowest non-empty bucket moves
/// up as buckets empty (and down if a lower priority is pushed, which consistent heuristics
/// never do). Priorities must be small integers (A*'s `f`).
#[derive(Debug)]
pub struct BucketQueue<K> {
    buckets: Vec<Vec<(K, u32)>>,
    min: usize,
    len: usize,
    cap_items: usize,
}

impl<K> Default for BucketQueue<K> {
    fn default() -> Self {
        BucketQueue {
            buckets: Vec::new(),
            min: 0,
            len: 0,
            cap_items: 0,
        }
    }
}

impl<K: Copy> OpenList<K> for BucketQueue<K> {
    fn push(&mut self, prio: u64, _tie: u32, g: u32, key: K) {
        let f = prio as usize;
        if f >= self.buckets.len() {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        let b = &mut self.buckets[f];
        let before = b.capacity();
        b.push((key, g));
        self.cap_items += b.capacity() - before;
        self.len += 1;
        if f < self.min {
            self.min = f;
        }
    }
    fn pop(&mut self) -> Option<(u64, u32, K)> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min].is_empty() {
            // Give back the memory of buckets left behind.
            let b = std::mem::take(&mut self.buckets[self.min]);
            self.cap_items -= b.capacity();
            self.min += 1;
        }
        let (key, g) = self.buckets[self.min].pop().expect("non-empty");
        self.len -= 1;
        Some((self.min as u64, g, key))
    }
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }
    fn min_prio(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        (self.min..self.buckets.len())
            .find(|&f| !self.buckets[f].is_empty())
            .map(|f| f as u64)
    }
    fn bytes(&self) -> (u64, u64) {
        let size = std::mem::size_of::<(K, u32)>() as u64;
        let headers = self.buckets.capacity() as u64 * std::mem::size_of::<Vec<(K, u32)>>() as u64;
        let now = self.cap_items as u64 * size + headers;
        // The bucket that grows next is at most the whole queue.
        (now, now + 2 * self.len.max(4) as u64 * size)
    }
    fn drain_all(&mut self) -> Vec<(u32, K)> {
        let mut out = Vec::with_capacity(self.len);
        for b in &mut self.buckets {
            out.extend(b.drain(..).map(|(k, g)| (g, k)));
        }
        *self = BucketQueue::default();
        out
    }
    fn name(&self) -> &'static str {
        "bucket queue"
    }
}

/// Two stacks: priorities `f` and `f + 2`. Valid when every push has one of these two
/// priorities, which holds for A* with a heuristic that changes by exactly 1 per move (see
/// the module documentation); a push outside them is a broken promise and is caught in
/// debug builds.
#[derive(Debug)]
pub struct TwoBucketQueue<K> {
    /// The priority of `now` (set by the first push; an empty queue keeps it, since the
    /// node being expanded still has it).
    f: Option<u64>,
    now: Vec<(K, u32)>,
    next: Vec<(K, u32)>,
}

impl<K> Default for TwoBucketQueue<K> {
    fn default() -> Self {
        TwoBucketQueue {
            f: None,
            now: Vec::new(),
            next: Vec::new(),
        }
    }
}

impl<K: Copy> OpenList<K> for TwoBucketQueue<K> {
    fn push(&mut self, prio: u64, _tie: u32, g: u32, key: K) {
        let f = *self.f.get_or_insert(prio);
        debug_assert!(
            prio == f || prio == f + 2,
            "two-bucket queue at f = {f} given f = {prio}"
        );
        if prio <= f {
            self.now.push((key, g));
        } else {
            self.next.push((key, g));
        }
    }
    fn pop(&mut self) -> Option<(u64, u32, K)> {
        if self.now.is_empty() {
            if self.next.is_empty() {
                return None;
            }
            std::mem::swap(&mut self.now, &mut self.next);
            self.f = self.f.map(|f| f + 2);
        }
        let f = self.f?;
        self.now.pop().map(|(k, g)| (f, g, k))
    }
    #[cfg(test)]
    fn len(&self) -> usize {
        self.now.len() + self.next.len()
    }
    fn min_prio(&mut self) -> Option<u64> {
        if !self.now.is_empty() {
            self.f
        } else if !self.next.is_empty() {
            self.f.map(|f| f + 2)
        } else {
            None
        }
    }
    fn bytes(&self) -> (u64, u64) {
        let (a, a2) = vec_bytes::<(K, u32)>(self.now.len(), self.now.capacity());
        let (b, b2) = vec_bytes::<(K, u32)>(self.next.len(), self.next.capacity());
        (a + b, a2.max(a) + b2.max(b))
    }
    fn drain_all(&mut self) -> Vec<(u32, K)> {
        let out = self
            .now
            .drain(..)
            .chain(self.next.drain(..))
            .map(|(k, g)| (g, k))
            .collect();
        *self = TwoBucketQueue::default();
        out
    }
    fn name(&self) -> &'static str {
        "two-bucket queue"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain<Q: OpenList<u32>>(q: &mut Q) -> Vec<u64> {
        std::iter::from_fn(|| q.pop().map(|(p, _, _)| p)).collect()
    }

    #[test]
    fn heap_and_buckets_pop_in_order() {
        let prios = [5u64, 3, 7, 3, 4, 9, 5, 6];
        let mut h = HeapQueue::default();
        let mut b = BucketQueue::default();
        for (i, &p) in prios.iter().enumerate() {
            h.push(p, 0, 0, i as u32);
            b.push(p, 0, 0, i as u32);
        }
        let mut sorted = prios.to_vec();
        sorted.sort();
        assert_eq!(b.min_prio(), Some(3));
        assert_eq!(drain(&mut h), sorted);
        assert_eq!(drain(&mut b), sorted);
        assert!(b.is_empty() && h.is_empty());
    }

    #[test]
    fn heap_breaks_ties_by_smaller_tie() {
        let mut h = HeapQueue::default();
        h.push(10, 4, 6, 1u32);
        h.push(10, 2, 8, 2u32);
        h.push(9, 9, 0, 3u32);
        assert_eq!(h.pop(), Some((9, 0, 3)));
        assert_eq!(h.pop(), Some((10, 8, 2)));
    }

    #[test]
    fn two_buckets_follow_f_and_f_plus_two() {
        let mut q = TwoBucketQueue::default();
        q.push(10, 0, 0, 0u32);
        assert_eq!(q.pop(), Some((10, 0, 0)));
        q.push(10, 0, 1, 1);
        q.push(12, 0, 1, 2);
        assert_eq!(q.pop(), Some((10, 1, 1)));
        q.push(12, 0, 2, 3);
        // Stacks: the last pushed of the lowest bucket first.
        assert_eq!(q.pop(), Some((12, 2, 3)));
        q.push(14, 0, 3, 4);
        assert_eq!(q.min_prio(), Some(12));
        assert_eq!(q.pop(), Some((12, 1, 2)));
        assert_eq!(q.pop(), Some((14, 3, 4)));
        assert_eq!(q.pop(), None);
        // Emptied by the last pop, it keeps its f: the children of the node just popped
        // come at f or f + 2, in any order.
        q.push(16, 0, 4, 5);
        q.push(14, 0, 4, 6);
        assert_eq!(q.pop(), Some((14, 4, 6)));
        assert_eq!(q.pop(), Some((16, 4, 5)));
        assert_eq!(q.drain_all(), vec![]);
    }
}
