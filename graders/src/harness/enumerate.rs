//! Exhaustive enumerations that plans are built from.

/// Every order of `items`, in lexicographic order of positions.
pub fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first.clone());
            all.push(tail);
        }
    }
    all
}

/// Every order in which inputs of `lens[i]` elements each can arrive, as the sequence of
/// input indexes (input `i` appearing `lens[i]` times), in lexicographic order.
pub fn arrival_orders(lens: &[usize]) -> Vec<Vec<usize>> {
    fn go(left: &mut [usize], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if left.iter().all(|n| *n == 0) {
            out.push(prefix.clone());
            return;
        }
        for input in 0..left.len() {
            if left[input] > 0 {
                left[input] -= 1;
                prefix.push(input);
                go(left, prefix, out);
                prefix.pop();
                left[input] += 1;
            }
        }
    }
    let mut out = Vec::new();
    go(&mut lens.to_vec(), &mut Vec::new(), &mut out);
    out
}

/// Every interleaving of `sequences` that keeps each one's order, as `(input, element)`,
/// in the order of [`arrival_orders`].
pub fn interleavings<T: Clone>(sequences: &[Vec<T>]) -> Vec<Vec<(usize, T)>> {
    let lens: Vec<usize> = sequences.iter().map(Vec::len).collect();
    arrival_orders(&lens)
        .into_iter()
        .map(|order| {
            let mut next = vec![0; sequences.len()];
            order
                .into_iter()
                .map(|input| {
                    let element = sequences[input][next[input]].clone();
                    next[input] += 1;
                    (input, element)
                })
                .collect()
        })
        .collect()
}

/// Every sequence of at most `max_len` calls drawn from `alphabet` (repetitions
/// allowed), shortest first and, within a length, in lexicographic order of positions:
/// the call sequences of a contract check, so that its first failure is its shortest.
/// `keep` prunes: a sequence it refuses is dropped, and so is every longer sequence that
/// starts with it (e.g. nothing after a call the brief ends the object with).
pub fn call_sequences<T: Clone>(
    alphabet: &[T],
    max_len: usize,
    keep: impl Fn(&[T]) -> bool,
) -> Vec<Vec<T>> {
    let mut all: Vec<Vec<T>> = vec![Vec::new()];
    let mut frontier: Vec<Vec<T>> = vec![Vec::new()];
    for _ in 0..max_len {
        let mut next = Vec::new();
        for prefix in &frontier {
            for call in alphabet {
                let mut sequence = prefix.clone();
                sequence.push(call.clone());
                if keep(&sequence) {
                    next.push(sequence);
                }
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all
}

#[cfg(test)]
mod tests {
    use super::{arrival_orders, call_sequences, interleavings, permutations};

    #[test]
    fn call_sequences_are_shortest_first_and_pruned_with_their_extensions() {
        let all = call_sequences(&['a', 'b'], 2, |_| true);
        assert_eq!(
            all,
            [
                vec![],
                vec!['a'],
                vec!['b'],
                vec!['a', 'a'],
                vec!['a', 'b'],
                vec!['b', 'a'],
                vec!['b', 'b'],
            ]
        );
        // Nothing follows a `b`.
        let pruned = call_sequences(&['a', 'b'], 3, |s| !s[..s.len() - 1].contains(&'b'));
        assert!(
            pruned
                .iter()
                .all(|s| !s[..s.len().saturating_sub(1)].contains(&'b'))
        );
        assert_eq!(pruned.len(), 1 + 2 + 2 + 2);
    }

    #[test]
    fn arrival_orders_are_every_order_in_lexicographic_order() {
        assert_eq!(
            arrival_orders(&[2, 1]),
            [vec![0, 0, 1], vec![0, 1, 0], vec![1, 0, 0]]
        );
        assert_eq!(arrival_orders(&[0, 0]), [Vec::<usize>::new()]);
    }

    #[test]
    fn interleavings_keep_each_sequence_in_order() {
        assert_eq!(
            interleavings(&[vec!['a', 'b'], vec!['x']]),
            [
                vec![(0, 'a'), (0, 'b'), (1, 'x')],
                vec![(0, 'a'), (1, 'x'), (0, 'b')],
                vec![(1, 'x'), (0, 'a'), (0, 'b')],
            ]
        );
    }

    #[test]
    fn permutations_are_every_order_in_lexicographic_order_of_positions() {
        assert_eq!(permutations::<u8>(&[]), vec![Vec::<u8>::new()]);
        assert_eq!(
            permutations(&['a', 'b', 'c']),
            vec![
                vec!['a', 'b', 'c'],
                vec!['a', 'c', 'b'],
                vec!['b', 'a', 'c'],
                vec!['b', 'c', 'a'],
                vec!['c', 'a', 'b'],
                vec!['c', 'b', 'a'],
            ]
        );
        assert_eq!(permutations(&[1, 1]).len(), 2);
    }
}
