//! A packed block of `explorer_games` (`explorer_packed`): the (node, game) rows of a block
//! whose games are all stored, sorted, 16 bytes each (node, then game, little-endian), cut
//! into chunks of about [`CHUNK`] rows that never split a node's games, each keyed by its
//! first node. A position's games in a block are then in one chunk: the last whose first
//! node is not above it.

use std::collections::HashMap;
use std::sync::Arc;

use fastbloom::BloomFilter;

/// Rows per chunk, about (a node's games are never split, so a chunk may hold more): 32 rows,
/// 512 bytes, in the B-tree's own page (a request reads one chunk per packed block: at 1,024
/// rows, 16 KiB each, a million-game store answered 259 requests a second, p99 127 ms).
const CHUNK: usize = 32;

/// Bits of a block's filter per row, and its hashes: about 1% false positives.
const FILTER_BITS: usize = 10;
const FILTER_HASHES: u32 = 7;

/// Filters read, by id, kept for every store of the process (a filter never changes: a block
/// packed again gets a new one); at most [`FILTERS`] of them (about 290 KB each for a block
/// of 16,384 games).
static KEPT: std::sync::Mutex<Option<HashMap<i64, Arc<BloomFilter>>>> = std::sync::Mutex::new(None);
const FILTERS: usize = 1024;

/// The Bloom filter of `rows`' nodes, as stored (64-bit words, little-endian).
pub(crate) fn filter(rows: &[(i64, i64)]) -> Vec<u8> {
    let bits = (rows.len() * FILTER_BITS).max(1024);
    let mut filter = BloomFilter::with_num_bits(bits).hashes(FILTER_HASHES);
    for &(node, _) in rows {
        filter.insert_hash(node as u64);
    }
    filter
        .as_slice()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// A filter's id: the hash of its bytes (two filters of one id are the same filter).
pub(crate) fn filter_id(bytes: &[u8]) -> i64 {
    xxhash_rust::xxh3::xxh3_64(bytes) as i64
}

/// The filter `id`, kept or read by `read` (its stored bytes).
pub(crate) fn kept_filter<E>(
    id: i64,
    read: impl FnOnce() -> Result<Vec<u8>, E>,
) -> Result<Arc<BloomFilter>, E> {
    if let Some(filter) = KEPT
        .lock()
        .expect("filters")
        .as_ref()
        .and_then(|k| k.get(&id))
    {
        return Ok(filter.clone());
    }
    let bytes = read()?;
    let words: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
        .collect();
    let filter = Arc::new(BloomFilter::from_vec(words).hashes(FILTER_HASHES));
    let mut kept = KEPT.lock().expect("filters");
    let kept = kept.get_or_insert_with(HashMap::new);
    if kept.len() >= FILTERS {
        kept.clear();
    }
    kept.insert(id, filter.clone());
    Ok(filter)
}

/// One chunk: its first node and its bytes.
pub(crate) type Chunk = (i64, Vec<u8>);

/// The chunks of `rows` (node, game), sorted here.
pub(crate) fn pack(mut rows: Vec<(i64, i64)>) -> Vec<Chunk> {
    rows.sort_unstable();
    rows.dedup();
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut bytes: Vec<u8> = Vec::new();
    let mut first = 0;
    for (i, &(node, game)) in rows.iter().enumerate() {
        let full = bytes.len() >= CHUNK * 16 && rows[i - 1].0 != node;
        if full {
            chunks.push((first, std::mem::take(&mut bytes)));
        }
        if bytes.is_empty() {
            first = node;
            bytes.reserve(CHUNK * 16 + 16);
        }
        bytes.extend_from_slice(&node.to_le_bytes());
        bytes.extend_from_slice(&game.to_le_bytes());
    }
    if !bytes.is_empty() {
        chunks.push((first, bytes));
    }
    chunks
}

/// The row at `i` of a chunk.
fn row(bytes: &[u8], i: usize) -> (i64, i64) {
    let at = |o: usize| i64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    (at(16 * i), at(16 * i + 8))
}

/// Every row of a chunk.
pub(crate) fn rows(bytes: &[u8]) -> impl Iterator<Item = (i64, i64)> + '_ {
    (0..bytes.len() / 16).map(move |i| row(bytes, i))
}

/// The games of `node` in a chunk.
pub(crate) fn games_of(bytes: &[u8], node: i64) -> impl Iterator<Item = i64> + '_ {
    let n = bytes.len() / 16;
    // The first row whose node is not below `node`.
    let (mut low, mut high) = (0, n);
    while low < high {
        let mid = (low + high) / 2;
        if row(bytes, mid).0 < node {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    (low..n)
        .map(move |i| row(bytes, i))
        .take_while(move |&(n, _)| n == node)
        .map(|(_, game)| game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_in_one_chunk_and_every_row_reads_back() {
        // 3,000 rows: nodes 0..300, ten games each, shuffled; node 150 has 2,000 more.
        let mut rows: Vec<(i64, i64)> = (0..3000).map(|i| ((i * 7919) % 300, i)).collect();
        rows.extend((0..2000).map(|g| (150, 10_000 + g)));
        let chunks = pack(rows.clone());
        assert!(chunks.len() >= 3, "{}", chunks.len());
        let mut read: Vec<(i64, i64)> = chunks.iter().flat_map(|(_, b)| super::rows(b)).collect();
        rows.sort_unstable();
        assert_eq!(read.len(), rows.len());
        read.sort_unstable();
        assert_eq!(read, rows);
        for node in [0, 1, 150, 299] {
            // The last chunk whose first node is not above it holds all of its games.
            let (_, chunk) = chunks
                .iter()
                .rev()
                .find(|(first, _)| *first <= node)
                .unwrap();
            let games: Vec<i64> = games_of(chunk, node).collect();
            let expected: Vec<i64> = rows.iter().filter(|r| r.0 == node).map(|r| r.1).collect();
            assert_eq!(games, expected, "node {node}");
        }
        assert_eq!(games_of(&chunks[0].1, -5).count(), 0);
        // The block's filter holds every node; read back, it still does.
        let bytes = filter(&rows);
        let kept = kept_filter::<()>(7, || Ok(bytes.clone())).unwrap();
        assert!(
            rows.iter()
                .all(|&(node, _)| kept.contains_hash(node as u64))
        );
        let absent = (1000..2000)
            .filter(|&n: &i64| kept.contains_hash(n as u64))
            .count();
        assert!(absent < 50, "{absent} false positives in 1,000");
        assert_eq!(games_of(&chunks.last().unwrap().1, 1000).count(), 0);
    }
}
