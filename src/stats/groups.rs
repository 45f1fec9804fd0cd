//! Entries grouped by key in bounded memory, for finding duplicates among millions of games:
//! entries are kept in memory up to a limit, then sorted and spilled to an anonymous temporary
//! file (removed by the system when closed, even if the process is killed); the groups come out
//! of a merge of the sorted runs. Memory stays at about the limit whatever the input size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// One entry: the group key (two words), the game's source and index, and a word of payload.
/// Entries sort by key, then by place, so a group comes out in input order.
pub type Entry = [u64; 5];

const BYTES: usize = 5 * 8;

/// How many entries are kept in memory before a run is spilled (40 bytes each: 20 MB).
const LIMIT: usize = 1 << 19;

/// How many runs are kept before they are merged into one.
const MAX_RUNS: usize = 32;

/// Writes sorted entries to a new anonymous temporary file.
fn write_run(entries: impl Iterator<Item = io::Result<Entry>>) -> io::Result<File> {
    let mut out = BufWriter::new(tempfile::tempfile()?);
    for e in entries {
        for w in e? {
            out.write_all(&w.to_le_bytes())?;
        }
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)
}

/// Entries grouped by their first two words; see the module documentation. Reading the groups
/// moves the runs' file offsets: one reader at a time.
#[derive(Debug, Default)]
pub struct Groups {
    memory: Vec<Entry>,
    runs: Vec<File>,
    limit: Option<usize>,
}

impl Groups {
    /// Groups that spill every `limit` entries (for tests; the default is about 20 MB).
    #[cfg(test)]
    fn with_limit(limit: usize) -> Groups {
        Groups { limit: Some(limit), ..Groups::default() }
    }

    /// Adds an entry.
    pub fn push(&mut self, entry: Entry) -> io::Result<()> {
        self.memory.push(entry);
        if self.memory.len() >= self.limit.unwrap_or(LIMIT) {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        self.memory.sort_unstable();
        let run = write_run(self.memory.iter().copied().map(Ok))?;
        self.runs.push(run);
        self.memory.clear();
        if self.runs.len() >= MAX_RUNS {
            // Merged into one run, so the open files stay few however many entries come.
            let mut sorted = self.sorted()?;
            let merged = write_run(std::iter::from_fn(|| sorted.next().transpose()))?;
            self.runs = vec![merged];
        }
        Ok(())
    }

    /// Every entry, in sorted order.
    fn sorted(&self) -> io::Result<Sorted> {
        let mut memory = self.memory.clone();
        memory.sort_unstable();
        let mut readers = Vec::with_capacity(self.runs.len());
        for run in &self.runs {
            let mut file = run.try_clone()?;
            file.seek(SeekFrom::Start(0))?;
            readers.push(BufReader::with_capacity(1 << 14, file));
        }
        let mut sorted = Sorted { memory: memory.into_iter(), readers, heap: BinaryHeap::new() };
        for source in 0..=sorted.readers.len() {
            sorted.refill(source)?;
        }
        Ok(sorted)
    }

    /// Calls `f` on every group of entries with the same key, in key order, each group's entries
    /// in order.
    pub fn for_each_group(&self, mut f: impl FnMut(&[Entry])) -> io::Result<()> {
        let mut sorted = self.sorted()?;
        let mut group: Vec<Entry> = Vec::new();
        while let Some(e) = sorted.next()? {
            if group.first().is_some_and(|g| g[..2] != e[..2]) {
                f(&group);
                group.clear();
            }
            group.push(e);
        }
        if !group.is_empty() {
            f(&group);
        }
        Ok(())
    }

    /// Adds every entry of `other`, changed by `map`.
    pub fn extend_from(&mut self, other: &Groups, map: impl Fn(Entry) -> Entry) -> io::Result<()> {
        let mut sorted = other.sorted()?;
        while let Some(e) = sorted.next()? {
            self.push(map(e))?;
        }
        Ok(())
    }
}

/// A merge of the in-memory entries (index 0 of the heap's sources) and the runs (1..).
struct Sorted {
    memory: std::vec::IntoIter<Entry>,
    readers: Vec<BufReader<File>>,
    heap: BinaryHeap<Reverse<(Entry, usize)>>,
}

impl Sorted {
    /// Puts the next entry of `source` on the heap, if it has one.
    fn refill(&mut self, source: usize) -> io::Result<()> {
        let next = if source == 0 {
            self.memory.next()
        } else {
            let mut bytes = [0u8; BYTES];
            match self.readers[source - 1].read_exact(&mut bytes) {
                Ok(()) => Some(std::array::from_fn(|i| {
                    u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
                })),
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => None,
                Err(e) => return Err(e),
            }
        };
        if let Some(e) = next {
            self.heap.push(Reverse((e, source)));
        }
        Ok(())
    }

    fn next(&mut self) -> io::Result<Option<Entry>> {
        let Some(Reverse((e, source))) = self.heap.pop() else { return Ok(None) };
        self.refill(source)?;
        Ok(Some(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups_of(g: &Groups) -> Vec<Vec<Entry>> {
        let mut out = Vec::new();
        g.for_each_group(|group| out.push(group.to_vec())).unwrap();
        out
    }

    #[test]
    fn spilled_runs_give_the_groups_memory_gives() {
        let entries: Vec<Entry> = (0..1000u64).map(|i| [i * 7 % 13, i % 3, 0, i, i * i]).collect();
        let mut spilled = Groups::with_limit(64);
        let mut kept = Groups::default();
        for &e in &entries {
            spilled.push(e).unwrap();
            kept.push(e).unwrap();
        }
        assert!(spilled.runs.len() == 15 && kept.runs.is_empty());
        let groups = groups_of(&spilled);
        assert_eq!(groups, groups_of(&kept));
        assert_eq!(groups.len(), 13 * 3);
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 1000);
        for g in &groups {
            assert!(g.windows(2).all(|w| w[0][..2] == w[1][..2] && w[0][3] < w[1][3]), "{g:?}");
        }
        let mut merged = Groups::with_limit(100);
        merged
            .extend_from(&spilled, |mut e| {
                e[2] = 1;
                e
            })
            .unwrap();
        assert_eq!(groups_of(&merged).len(), 39);
        assert!(groups_of(&merged).iter().flatten().all(|e| e[2] == 1));
    }

    #[test]
    fn many_runs_are_merged_into_one() {
        let mut g = Groups::with_limit(4);
        for i in 0..(4 * MAX_RUNS as u64 + 10) {
            g.push([i % 5, 0, 0, i, 0]).unwrap();
        }
        assert!(g.runs.len() < MAX_RUNS, "{} runs", g.runs.len());
        let groups = groups_of(&g);
        assert_eq!(groups.len(), 5);
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 4 * MAX_RUNS + 10);
        assert!(groups.iter().all(|g| g.windows(2).all(|w| w[0][3] < w[1][3])));
    }
}
