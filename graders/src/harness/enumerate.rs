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

#[cfg(test)]
mod tests {
    use super::{arrival_orders, interleavings, permutations};

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
