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

#[cfg(test)]
mod tests {
    use super::permutations;

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
