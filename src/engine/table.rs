//! The transposition table: score bounds and best moves of searched positions, shared by every
//! thread of a search without locks.
//!
//! Each slot holds three words: the data, and the two bitboards each mixed with the data. A
//! reader accepts a slot only when both bitboards come back from that mix, so a slot torn by two
//! threads writing at once reads as a miss instead of a wrong answer. Slots come in pairs, one
//! pair to a cache line: the first keeps the deeper of the positions that meet there, the
//! second takes the rest. The small near-the-end tables also keep a [`Summary`] of each pair in
//! a separate array, which answers most of their probes and chooses their stores' slots without
//! reading the pair.

use std::alloc::Layout;
use std::cell::RefCell;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

/// What the table knows of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Entry {
    /// The score is at least this (discs when exact, evaluation units otherwise).
    pub lower: i16,
    /// The score is at most this.
    pub upper: i16,
    /// The best move found (a bit index), or [`NO_MOVE`].
    pub best: u8,
    /// Moves searched ahead, or [`EXACT`] for bounds on the final margin, or
    /// [`endgame_tag`] of a selectivity level for bounds the endgame search found with
    /// ProbCut cut-offs.
    pub depth: u8,
    /// The work behind the entry (empty squares for exact ones, depth otherwise): deeper work
    /// is kept first.
    pub cost: u8,
}

/// No best move known.
pub(crate) const NO_MOVE: u8 = 255;
/// The depth of an entry whose bounds are exact disc margins.
pub(crate) const EXACT: u8 = 255;
/// Selectivity levels of the endgame search below exact (see [`endgame_tag`]).
pub(crate) const SELECTIVE_LEVELS: u8 = 5;

/// The depth tag of the endgame search's entries at selectivity `level` (0 the most selective,
/// [`SELECTIVE_LEVELS`] exact, tagged [`EXACT`]): bounds in discs, usable by a search at the
/// same level or a less exact one. Above every depth of the depth-limited search.
pub(crate) const fn endgame_tag(level: u8) -> u8 {
    EXACT - (SELECTIVE_LEVELS - level)
}

impl Entry {
    /// Whether the bounds are endgame disc margins, exact or selective.
    pub(crate) fn is_endgame(self) -> bool {
        self.depth >= endgame_tag(0)
    }

    /// `generation` is never zero, so an empty slot (all zero) matches no position.
    fn pack(self, generation: u8) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.depth) << 40
            | u64::from(self.cost) << 48
            | u64::from(generation) << 56
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            depth: (data >> 40) as u8,
            cost: (data >> 48) as u8,
        }
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 56) as u8
}

struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    data: AtomicU64,
}

/// Two slots in one cache line, so that a probe waits for one memory load, not two.
#[repr(C, align(64))]
struct Pair([Slot; 2]);

impl Slot {
    fn read(&self) -> (u64, u64, u64) {
        let data = self.data.load(Relaxed);
        (self.player.load(Relaxed) ^ data, self.opponent.load(Relaxed) ^ data, data)
    }

    fn write(&self, p: u64, o: u64, data: u64) {
        self.data.store(data, Relaxed);
        self.player.store(p ^ data, Relaxed);
        self.opponent.store(o ^ data, Relaxed);
    }
}

/// A lock-free transposition table of a fixed size.
///
/// The slots live in zeroed memory aligned to 2 MiB; on Linux the kernel is asked to back it
/// with huge pages before the first write, which spares the address translations of random
/// probes (9% of the solver's time on FFO #20-39, docs/BENCHMARKS.md).
pub(crate) struct Table {
    slots: Slots,
    len: usize,
    layout: Layout,
    /// The words of [`Slots::summaries`], when the table keeps them.
    summaries: Option<Box<[AtomicU64]>>,
}

/// Where a table's pairs of slots are and the mask of a pair's index: all a look-up needs,
/// copied into each [`TableView`] so that a probe reads the slot without first reading the
/// table's fields. Copies live only in their [`Table`] and in views that borrow it.
#[derive(Clone, Copy)]
struct Slots {
    pairs: NonNull<Pair>,
    mask: usize,
    /// Null, or one [`Summary`] word per pair: a probe of a position the table does not hold,
    /// the common case, reads this small array instead of the pair's cache line.
    summaries: *const AtomicU64,
}

// SAFETY: a view of atomics; the table that owns them outlives every copy (see `TableView`).
unsafe impl Send for Slots {}
// SAFETY: as above.
unsafe impl Sync for Slots {}

impl Slots {
    /// The pair of slots of `p` to move against `o`.
    #[inline]
    fn pair(&self, p: u64, o: u64) -> &Pair {
        self.pair_of(hash(p, o))
    }

    /// The pair of slots of the position whose [`hash`] is `h`.
    #[inline]
    fn pair_of(&self, h: u64) -> &Pair {
        // SAFETY: the index is masked to the table's length, and the table outlives `self`.
        unsafe { &*self.pairs.as_ptr().add(h as usize & self.mask) }
    }

    /// Asks the processor to bring the slots of `p` to move against `o` into the cache, so that
    /// a later probe or store does not wait for memory.
    #[inline]
    fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let pair: *const Pair = self.pair(p, o);
            // SAFETY: a prefetch is only a hint (it never faults); the address is the pair's.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(pair.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// As [`Table::probe`].
    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let h = hash(p, o);
        if !self.summaries.is_null() {
            // SAFETY: the index is masked to the table's length, which the summaries' array has.
            let summary = Summary(unsafe { (*self.summaries.add(h as usize & self.mask)).load(Relaxed) });
            // No slot tagged so: the position is not here.
            summary.slot_of(tag(h))?;
        }
        for slot in &self.pair_of(h).0 {
            let (sp, so, data) = slot.read();
            if sp == p && so == o && data != 0 {
                return Some(Entry::unpack(data));
            }
        }
        None
    }
}

/// The hash of `p` to move against `o`: its low bits index the pairs (the products' high bits,
/// mixed from every input bit, come first), the next ones make the [`tag`].
#[inline]
fn hash(p: u64, o: u64) -> u64 {
    (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(29)
}

/// Pairs of a table with summaries at most: the [`tag`] takes the hash's bits above the index.
const MAX_SUMMARISED_PAIRS: usize = 1 << 14;

/// A position's tag from its [`hash`], in a table of at most [`MAX_SUMMARISED_PAIRS`] pairs: 15
/// bits of the hash, not those of the index, and a top bit set so that it is never 0 (an empty
/// slot's).
#[inline]
fn tag(h: u64) -> u64 {
    (h >> 14) & 0x7FFF | 0x8000
}

/// What a table with summaries knows of a pair without reading it: the two slots' [`tag`]s
/// (bits 0-15 and 16-31, 0 when empty), the first slot's cost (32-39) and generation (40-47),
/// and whether each slot holds an endgame entry (bits 48 and 49). Enough to choose the slot a
/// store writes, so that the pair's cache line is written but never read, and to tell most
/// probes of absent positions without it.
#[derive(Clone, Copy)]
struct Summary(u64);

impl Summary {
    /// The slot whose tag is `tag`, if any.
    #[inline]
    fn slot_of(self, tag: u64) -> Option<usize> {
        if self.0 & 0xFFFF == tag {
            Some(0)
        } else if self.0 >> 16 & 0xFFFF == tag {
            Some(1)
        } else {
            None
        }
    }

    /// Whether slot `k` holds an endgame entry.
    #[inline]
    fn endgame(self, k: usize) -> bool {
        self.0 >> (48 + k) & 1 != 0
    }

    /// Whether the first slot is empty.
    #[inline]
    fn first_empty(self) -> bool {
        self.0 & 0xFFFF == 0
    }

    /// The first slot's generation and cost.
    #[inline]
    fn first_generation_and_cost(self) -> (u8, u8) {
        ((self.0 >> 40) as u8, (self.0 >> 32) as u8)
    }

    /// The summary once slot `k` holds `entry` of the position tagged `tag`, stored by the
    /// search of `generation`.
    #[inline]
    fn with(self, k: usize, tag: u64, entry: Entry, generation: u8) -> Summary {
        let endgame = u64::from(entry.is_endgame());
        Summary(if k == 0 {
            self.0 & !(0xFFFF | 0xFFFF << 32 | 1 << 48)
                | tag
                | u64::from(entry.cost) << 32
                | u64::from(generation) << 40
                | endgame << 48
        } else {
            self.0 & !(0xFFFF << 16 | 1 << 49) | tag << 16 | endgame << 49
        })
    }
}

/// The replacement rule, for a position in neither slot of its pair: whether the first slot's
/// entry, of `(generation, cost)`, gives way to `entry` from the search of `generation` (an
/// older search's entries do, and shallower work), else the second slot takes it.
#[inline]
fn first_gives_way((first_generation, first_cost): (u8, u8), entry: Entry, generation: u8) -> bool {
    first_generation != generation || first_cost <= entry.cost
}

// SAFETY: the slots are atomics, shared by reference only; the allocation is owned.
unsafe impl Send for Table {}
// SAFETY: as above: every access through `&Table` is an atomic load or store.
unsafe impl Sync for Table {}

const HUGE_PAGE: usize = 2 << 20;

impl Table {
    /// A table of at most `mib` MiB (the largest power of two number of pairs of slots that fits,
    /// at least 512), its memory mapped where it is first used: a large table takes no time
    /// to make (writing 4 GiB took 8 s here), and the searches that fill it pay for its pages
    /// (the same wall time on FFO #20-39 as mapping it at once).
    pub fn new(mib: usize) -> Table {
        Table::allocate(mib, false)
    }

    /// A table of at most `mib` MiB whose memory is mapped only where it is first used (`touch`
    /// false), or at once.
    fn allocate(mib: usize, touch: bool) -> Table {
        Table::allocate_kib(mib.max(1).saturating_mul(1 << 10), touch)
    }

    /// [`Table::allocate`] in KiB. A size the system cannot give (a size set by a user, larger
    /// than the memory) is halved until it can, down to the smallest table, rather than ending
    /// the process.
    fn allocate_kib(kib: usize, touch: bool) -> Table {
        // (At most a quarter of the address space, so that a layout of it is one.)
        let wanted = kib.saturating_mul(1 << 10).min(isize::MAX as usize / 2) / std::mem::size_of::<Pair>();
        // The largest power of two that fits.
        let mut len = (1usize << wanted.max(1).ilog2()).max(512);
        let (pairs, layout) = loop {
            let bytes = len * std::mem::size_of::<Pair>();
            let layout =
                Layout::from_size_align(bytes, HUGE_PAGE.min(bytes.next_power_of_two())).expect("table layout");
            match NonNull::new(allocate_zeroed(layout).cast::<Pair>()) {
                Some(pairs) => break (pairs, layout),
                None if len > 512 => len /= 2,
                None => std::alloc::handle_alloc_error(layout),
            }
        };
        let bytes = layout.size();
        if touch {
            // The first touch, after the huge-page advice: writing is what maps the pages.
            // SAFETY: the block holds `bytes` writable bytes; all-zero bytes are empty slots.
            unsafe { std::ptr::write_bytes(pairs.as_ptr().cast::<u8>(), 0, bytes) };
        }
        Table { slots: Slots { pairs, mask: len - 1, summaries: std::ptr::null() }, len, layout, summaries: None }
    }

    /// A table of at most `kib` KiB (and at most [`NEAR_MAX_KIB`]) with a [`Summary`] of each
    /// pair: for a table that stays partly in the processor's cache, whose probes mostly find
    /// nothing.
    pub fn with_summaries(kib: usize) -> Table {
        let mut table = Table::allocate_kib(kib.min(NEAR_MAX_KIB), true);
        debug_assert!(table.len <= MAX_SUMMARISED_PAIRS);
        let summaries: Box<[AtomicU64]> = (0..table.len).map(|_| AtomicU64::new(0)).collect();
        table.slots.summaries = summaries.as_ptr();
        table.summaries = Some(summaries);
        table
    }

    /// [`Table::store`] in pair `pair` of a table with summaries, given its `summary` word: the
    /// summary chooses the slot as [`Table::store`] would from the slots themselves (up to tags
    /// that collide, which only choose another slot), and the slot is written without being read.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store_summarised(&self, summary: &AtomicU64, pair: &Pair, h: u64, p: u64, o: u64, entry: Entry, generation: u8) {
        let t = tag(h);
        let old = Summary(summary.load(Relaxed));
        let k = match old.slot_of(t) {
            // A depth-limited entry never replaces an endgame one of the same position.
            Some(k) if !entry.is_endgame() && old.endgame(k) => return,
            Some(k) => k,
            None if old.first_empty() || first_gives_way(old.first_generation_and_cost(), entry, generation) => 0,
            None => 1,
        };
        pair.0[k].write(p, o, entry.pack(generation));
        summary.store(old.with(k, t, entry, generation).0, Relaxed);
    }

    fn pairs(&self) -> &[Pair] {
        // SAFETY: `pairs` points to `len` initialised pairs owned by this table.
        unsafe { std::slice::from_raw_parts(self.slots.pairs.as_ptr(), self.len) }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for slot in self.pairs().iter().flat_map(|pair| &pair.0) {
            slot.write(0, 0, 0);
        }
        for summary in self.summaries.iter().flat_map(|s| s.iter()) {
            summary.store(0, Relaxed);
        }
    }

    /// The index of the pair of slots of `p` to move against `o`.
    #[cfg(test)]
    fn pair(&self, p: u64, o: u64) -> usize {
        hash(p, o) as usize & self.slots.mask
    }

    /// What the table holds for the position `p` to move against `o`.
    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        self.slots.probe(p, o)
    }

    /// Records what a search of `p` to move against `o` found; `generation` (not zero) tells
    /// this search's entries from older ones, which give way first. Returns the index of the
    /// entry's pair of slots when both were empty before (in a table without summaries).
    #[inline]
    pub fn store(&self, p: u64, o: u64, entry: Entry, generation: u8) -> Option<usize> {
        debug_assert_ne!(generation, 0);
        let h = hash(p, o);
        let i = h as usize & self.slots.mask;
        if let Some(summaries) = &self.summaries {
            self.store_summarised(&summaries[i], &self.pairs()[i], h, p, o, entry, generation);
            return None;
        }
        let data = entry.pack(generation);
        let [first, second] = &self.pairs()[i].0;
        // A depth-limited entry never replaces an endgame one of the same position: ProbCut's
        // shallow searches inside the endgame search would wipe out its best moves.
        let keeps = |old: u64| !entry.is_endgame() && Entry::unpack(old).is_endgame();
        let (fp, fo, fdata) = first.read();
        if fp == p && fo == o {
            if !keeps(fdata) {
                first.write(p, o, data);
            }
            return None;
        }
        let (sp, so, sdata) = second.read();
        if sp == p && so == o {
            if !keeps(sdata) {
                second.write(p, o, data);
            }
            return None;
        }
        if fdata == 0 || first_gives_way((generation_of(fdata), Entry::unpack(fdata).cost), entry, generation) {
            first.write(p, o, data);
        } else {
            second.write(p, o, data);
        }
        (fdata == 0 && sdata == 0).then_some(i)
    }
}

/// Empty squares at and below which a position's entry goes to the near-the-end table.
pub(crate) const NEAR_EMPTIES: u32 = 10;
/// The largest near-the-end table, in KiB.
const NEAR_MAX_KIB: usize = 1 << 10;
/// The smallest near-the-end table, in KiB.
const NEAR_MIN_KIB: usize = 64;

/// Size of a near-the-end table in KiB: half the core's second-level cache as the processor
/// reports it, between [`NEAR_MIN_KIB`] and [`NEAR_MAX_KIB`] (the largest where it reports
/// none). The other half is left to the rest of the search's working set (the summaries, the
/// evaluation's weights); on a Zen 3 core (512 KiB) a 1 MiB table took 3-7% longer
/// (docs/BENCHMARKS.md).
fn near_kib() -> usize {
    static KIB: OnceLock<usize> = OnceLock::new();
    *KIB.get_or_init(|| second_level_cache_kib().map_or(NEAR_MAX_KIB, |l2| (l2 / 2).clamp(NEAR_MIN_KIB, NEAR_MAX_KIB)))
}

/// The second-level cache of a core in KiB, from CPUID's extended leaf 0x8000_0006 (AMD and
/// Intel alike), if the processor reports it.
#[cfg(target_arch = "x86_64")]
fn second_level_cache_kib() -> Option<usize> {
    use std::arch::x86_64::__cpuid;
    if __cpuid(0x8000_0000).eax < 0x8000_0006 {
        return None;
    }
    let kib = (__cpuid(0x8000_0006).ecx >> 16) as usize;
    (kib > 0).then_some(kib)
}

/// The second-level cache of a core in KiB: not read on this architecture.
#[cfg(not(target_arch = "x86_64"))]
fn second_level_cache_kib() -> Option<usize> {
    None
}

/// The solver's shared table in two parts by the empty squares of the position: the many
/// positions near the end of the game ([`NEAR_EMPTIES`] empties or fewer) in small tables that
/// stay in the processor's cache, one per thread, the others in the main table. One table for
/// all of them made nearly every probe wait for main memory, and one near-the-end table for
/// all threads made their cores pass its cache lines back and forth (docs/BENCHMARKS.md).
pub(crate) struct Tables {
    main: Table,
    /// At least one; a search uses the one of its thread ([`Tables::view`]).
    near: Vec<Table>,
}

impl Tables {
    /// A main table of at most `mib` MiB and one near-the-end table sized for the core's cache
    /// ([`near_kib`]).
    pub fn new(mib: usize) -> Tables {
        Tables { main: Table::new(mib), near: vec![Table::with_summaries(near_kib())] }
    }

    /// One near-the-end table for each of `threads` threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.near.truncate(threads.max(1));
        while self.near.len() < threads {
            self.near.push(Table::with_summaries(near_kib()));
        }
    }

    /// The parts a search on the thread numbered `thread` (in its pool) uses: the main table
    /// and that thread's near-the-end table.
    pub fn view(&self, thread: usize) -> TableView<'_> {
        let near = &self.near[thread % self.near.len()];
        TableView { main: self.main.slots, near: near.slots, main_table: &self.main, near_table: near }
    }

    /// [`Tables::view`] for the calling thread (its index in its rayon pool, else the first).
    pub fn current_view(&self) -> TableView<'_> {
        self.view(rayon::current_thread_index().unwrap_or(0))
    }

    /// What the main table, or any thread's near-the-end table, holds for `p` to move against
    /// `o`.
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        if is_near(p, o) { self.near.iter().find_map(|t| t.probe(p, o)) } else { self.main.probe(p, o) }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.main.clear();
        for near in &mut self.near {
            near.clear();
        }
    }
}

/// Whether `p` to move against `o` belongs in a near-the-end table.
#[inline]
fn is_near(p: u64, o: u64) -> bool {
    (p | o).count_ones() >= 64 - NEAR_EMPTIES
}

/// The main table and one near-the-end table: what one search reads and writes. It keeps
/// copies of both tables' [`Slots`], so that a look-up goes straight to the slot.
#[derive(Clone, Copy)]
pub(crate) struct TableView<'a> {
    main: Slots,
    near: Slots,
    /// The tables the slots belong to, borrowed for as long as the view lives.
    main_table: &'a Table,
    near_table: &'a Table,
}

impl TableView<'_> {
    /// The slots of the part that holds `p` to move against `o`.
    #[inline]
    fn part(&self, p: u64, o: u64) -> &Slots {
        if is_near(p, o) { &self.near } else { &self.main }
    }

    /// Asks the processor to bring the slots of `p` to move against `o` into the cache, so that
    /// a later probe or store does not wait for memory.
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64) {
        self.part(p, o).prefetch(p, o);
    }

    /// As [`Table::probe`].
    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        self.part(p, o).probe(p, o)
    }

    /// As [`Table::store`].
    #[inline]
    pub fn store(&self, p: u64, o: u64, entry: Entry, generation: u8) {
        let table = if is_near(p, o) { self.near_table } else { self.main_table };
        table.store(p, o, entry, generation);
    }
}

/// Layers for the searches of one call, reused from one search to the next: each is empty when
/// taken.
pub(crate) struct Layers {
    mib: usize,
    free: Mutex<Vec<Layer>>,
}

impl Layers {
    /// None yet; each will take about `mib` MiB.
    pub(crate) fn new(mib: usize) -> Layers {
        Layers { mib, free: Mutex::new(Vec::new()) }
    }

    /// An empty layer.
    pub(crate) fn take(&self) -> Layer {
        self.free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| Layer::new(self.mib))
    }

    /// Gives back a layer that [`Layer::drain`] emptied.
    pub(crate) fn give(&self, layer: Layer) {
        debug_assert!(layer.touched.borrow().is_empty());
        self.free.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(layer);
    }
}

/// A private table over a frozen shared one, for one search whose result must not depend on
/// what other threads find meanwhile: it starts empty, and [`Layer::drain`] hands out what it
/// was given in the order its slots were first used, emptying it again.
pub(crate) struct Layer {
    table: Table,
    /// The pairs of slots used since the last drain, in order.
    touched: RefCell<Vec<usize>>,
}

impl Layer {
    /// An empty layer of about `mib` MiB.
    pub(crate) fn new(mib: usize) -> Layer {
        Layer { table: Table::allocate(mib, false), touched: RefCell::new(Vec::new()) }
    }

    /// What the layer holds for the position `p` to move against `o`.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        self.table.probe(p, o)
    }

    /// As [`Table::store`].
    #[inline]
    pub(crate) fn store(&self, p: u64, o: u64, entry: Entry, generation: u8) {
        if let Some(pair) = self.table.store(p, o, entry, generation) {
            self.touched.borrow_mut().push(pair);
        }
    }

    /// The positions and entries held, in the order their slots were first used; the layer is
    /// empty afterwards.
    pub(crate) fn drain(&mut self) -> Vec<(u64, u64, Entry)> {
        let mut out = Vec::new();
        for pair in self.touched.get_mut().drain(..) {
            for slot in &self.table.pairs()[pair].0 {
                let (p, o, data) = slot.read();
                if data != 0 {
                    out.push((p, o, Entry::unpack(data)));
                }
                slot.write(0, 0, 0);
            }
        }
        out
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: allocated by `allocate_zeroed` with this layout and not freed since.
        unsafe { free(self.slots.pairs.as_ptr().cast(), self.layout) };
    }
}

/// Zeroed memory for `layout`, not yet touched, so that the first write maps its pages; null
/// when there is none. On Linux an anonymous mapping aligned to a huge page and advised to use
/// huge pages. (The global allocator's `alloc_zeroed` writes the zeroes itself when the
/// alignment is large, which maps small pages before any advice can be given.)
#[cfg(target_os = "linux")]
fn allocate_zeroed(layout: Layout) -> *mut u8 {
    let (bytes, align) = (layout.size(), layout.align().max(4096));
    // Map one alignment more than needed, then give back the head and tail around the aligned
    // block.
    let len = bytes + align;
    // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    let start = raw as usize;
    let aligned = start.next_multiple_of(align);
    // SAFETY: both ranges lie in the mapping just made and outside the block kept; the advice
    // changes no contents (the block is zero until written).
    unsafe {
        if aligned > start {
            libc::munmap(raw, aligned - start);
        }
        let tail = start + len - (aligned + bytes);
        if tail > 0 {
            libc::munmap((aligned + bytes) as *mut libc::c_void, tail);
        }
        if bytes >= HUGE_PAGE {
            libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
    }
    aligned as *mut u8
}

/// Frees what [`allocate_zeroed`] gave for `layout`.
///
/// # Safety
/// `ptr` came from `allocate_zeroed(layout)` and is not used afterwards.
#[cfg(target_os = "linux")]
unsafe fn free(ptr: *mut u8, layout: Layout) {
    // SAFETY: the caller's promise: this is the whole block mapped for `layout`.
    unsafe { libc::munmap(ptr.cast(), layout.size()) };
}

/// Zeroed memory for `layout` from the global allocator; null when there is none.
#[cfg(not(target_os = "linux"))]
fn allocate_zeroed(layout: Layout) -> *mut u8 {
    // SAFETY: the layout has a non-zero size.
    unsafe { std::alloc::alloc_zeroed(layout) }
}

/// Frees what [`allocate_zeroed`] gave for `layout`.
///
/// # Safety
/// `ptr` came from `allocate_zeroed(layout)` and is not used afterwards.
#[cfg(not(target_os = "linux"))]
unsafe fn free(ptr: *mut u8, layout: Layout) {
    // SAFETY: the caller's promise.
    unsafe { std::alloc::dealloc(ptr, layout) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_both_positions_of_a_pair() {
        for table in [Table::new(1), Table::with_summaries(NEAR_MAX_KIB)] {
            stores_and_finds_both_positions_of_a_pair_in(table);
        }
    }

    #[test]
    fn a_table_larger_than_the_memory_is_made_smaller_not_fatal() {
        // (A user's size: far more than any machine's memory, or the whole address space.)
        for mib in [100_000_000, usize::MAX] {
            stores_and_finds_both_positions_of_a_pair_in(Table::new(mib));
        }
    }

    fn stores_and_finds_both_positions_of_a_pair_in(table: Table) {
        let a = Entry { lower: -4, upper: 10, best: 19, depth: EXACT, cost: 12 };
        let b = Entry { lower: -300, upper: 2, best: NO_MOVE, depth: 3, cost: 3 };
        table.store(1, 2, a, 1);
        assert_eq!(table.probe(1, 2), Some(a));
        assert_eq!(table.probe(2, 1), None);
        // Same pair, shallower: the deeper entry stays.
        let i = table.pair(1, 2);
        let (p, o) = (0..u64::MAX).map(|k| (k << 8 | 3, 4)).find(|&(p, o)| table.pair(p, o) == i).unwrap();
        table.store(p, o, b, 1);
        assert_eq!(table.probe(1, 2), Some(a));
        assert_eq!(table.probe(p, o), Some(b));
        // A newer search's entry takes the place of an older search's, however deep.
        let (q, r) = (0..u64::MAX).map(|k| (k << 8 | 5, 4)).find(|&(p, o)| table.pair(p, o) == i).unwrap();
        let c = Entry { lower: 0, upper: 0, best: 7, depth: 1, cost: 1 };
        table.store(q, r, c, 2);
        assert_eq!(table.probe(q, r), Some(c));
        assert_eq!(table.probe(1, 2), None);
        assert_eq!(table.probe(p, o), Some(b));
    }

    #[test]
    fn a_depth_limited_entry_keeps_an_endgame_entry_of_its_position() {
        for table in [Table::new(1), Table::with_summaries(NEAR_MAX_KIB)] {
            a_depth_limited_entry_keeps_an_endgame_entry_in(table);
        }
    }

    fn a_depth_limited_entry_keeps_an_endgame_entry_in(table: Table) {
        let selective = Entry { lower: 2, upper: 64, best: 19, depth: endgame_tag(0), cost: 20 };
        let shallow = Entry { lower: -50, upper: 300, best: 26, depth: 3, cost: 3 };
        table.store(1, 2, selective, 1);
        table.store(1, 2, shallow, 1);
        assert_eq!(table.probe(1, 2), Some(selective));
        // The exact search's entry replaces a selective one, and is kept likewise.
        let exact = Entry { lower: 4, upper: 4, best: 19, depth: EXACT, cost: 20 };
        table.store(1, 2, exact, 1);
        table.store(1, 2, shallow, 1);
        assert_eq!(table.probe(1, 2), Some(exact));
        assert!(exact.is_endgame() && selective.is_endgame() && !shallow.is_endgame());
        assert!(endgame_tag(SELECTIVE_LEVELS) == EXACT && endgame_tag(0) > 64);
    }

    #[test]
    fn the_parts_keep_their_own_positions() {
        let mut tables = Tables::new(4);
        tables.set_threads(2);
        let (first, second) = (tables.view(0), tables.view(3));
        // 10 empty squares: a near-the-end part, the thread's own; 11: the main one, shared.
        let near = (u64::MAX << 10, 0);
        let far = (u64::MAX << 11, 0);
        let slots = |s: &Slots| s.pairs;
        assert_eq!(slots(first.part(near.0, near.1)), tables.near[0].slots.pairs);
        assert_eq!(slots(second.part(near.0, near.1)), tables.near[1].slots.pairs);
        assert_eq!(slots(second.part(far.0, far.1)), tables.main.slots.pairs);
        let a = Entry { lower: 2, upper: 2, best: 1, depth: EXACT, cost: 10 };
        let b = Entry { lower: -6, upper: 64, best: 3, depth: EXACT, cost: 11 };
        second.store(near.0, near.1, a, 1);
        first.store(far.0, far.1, b, 1);
        assert_eq!(second.probe(near.0, near.1), Some(a));
        assert_eq!(first.probe(near.0, near.1), None);
        assert_eq!(second.probe(far.0, far.1), Some(b));
        assert_eq!(tables.probe(near.0, near.1), Some(a));
        assert_eq!(tables.main.probe(near.0, near.1), None);
        tables.clear();
        assert_eq!(tables.probe(near.0, near.1), None);
        assert_eq!(tables.probe(far.0, far.1), None);
        tables.set_threads(1);
        assert_eq!(tables.near.len(), 1);
    }

    #[test]
    fn near_the_end_tables_fit_their_bounds() {
        let kib = near_kib();
        assert!((NEAR_MIN_KIB..=NEAR_MAX_KIB).contains(&kib), "{kib} KiB");
        let tables = Tables::new(64);
        let bytes = tables.near[0].len * std::mem::size_of::<Pair>();
        // The largest power of two of pairs that fits.
        assert!(bytes <= kib << 10 && 2 * bytes > kib << 10, "{bytes} bytes for {kib} KiB");
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let table = Table::new(1);
        assert_eq!(table.probe(0, 0), None);
        assert_eq!(table.probe(0x0000_0008_1000_0000, 0x0000_0010_0800_0000), None);
    }

    #[test]
    fn summaries_choose_the_slots_the_pairs_would() {
        // The same stores in both kinds of table, many to each pair.
        let (plain, summarised) = (Table::new(1), Table::with_summaries(NEAR_MAX_KIB));
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let mut positions = Vec::new();
        for n in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (p, o) = (x & 0x00FF_FFFF_FFFF_FFFF, (x >> 8) & !x & 0x00FF_FFFF_FFFF_FFFF);
            let entry = Entry {
                lower: (x % 7) as i16 - 3,
                upper: 4,
                best: (x % 64) as u8,
                depth: if x.is_multiple_of(5) { 3 } else { EXACT },
                cost: (x >> 20) as u8 % 20,
            };
            let generation = 1 + (n / 50_000) as u8;
            plain.store(p, o, entry, generation);
            summarised.store(p, o, entry, generation);
            positions.push((p, o));
        }
        let found = positions.iter().filter(|&&(p, o)| plain.probe(p, o).is_some()).count();
        assert!(found > 10_000);
        // Tags that collide (15 bits) may choose another slot now and then, nothing more: an
        // entry found is the position's own, and the two tables differ on a few positions only.
        let mut differ = 0;
        for &(p, o) in &positions {
            let (a, b) = (plain.probe(p, o), summarised.probe(p, o));
            if a != b {
                assert!(b.is_none() || a.is_none(), "{a:?} {b:?}");
                differ += 1;
            }
        }
        assert!(differ < positions.len() / 1000, "{differ}");
        let mut summarised = summarised;
        summarised.clear();
        assert!(positions.iter().all(|&(p, o)| summarised.probe(p, o).is_none()));
    }
}
