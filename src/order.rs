//! How the core sorts: by a total order only, so every output that depends on an order is
//! the same for the same input (no comparator that can tie two different values and leave
//! them in memory order). Most orderings are a `u64` key plus a tiebreaking index.
//!
//! Owns: sorting. Must never: be bypassed by another `sort*` call in the core.

pub fn sort_keyed(v: &mut [(u64, usize)]) {
    sort(v);
}

/// Any values with a total order, ascending.
pub fn sort<T: Ord>(v: &mut [T]) {
    v.sort_unstable();
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_sort_then_indices() {
        let mut v = vec![(3, 0), (1, 2), (1, 1), (u64::MAX, 3)];
        super::sort_keyed(&mut v);
        assert_eq!(v, [(1, 1), (1, 2), (3, 0), (u64::MAX, 3)]);
    }

    #[test]
    fn no_other_module_sorts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(d).expect("src readable").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("order.rs") {
                    let code = std::fs::read_to_string(&p).expect("source readable");
                    let code = code.split("#[cfg(test)]").next().unwrap_or("");
                    assert!(!code.contains(".sort"), "{} sorts outside order.rs", p.display());
                }
            }
        }
    }
}
