//! The simulator's clean runs: every shape delivers its input exactly once.

mod sim;

use sim::{Schedule, ShapeA, ShapeB, ShapeC, run};

#[test]
fn every_shape_delivers_a_clean_run_exactly_once() {
    for len in 0..=5 {
        for barrier_every in 1..=len + 1 {
            for commit_lag in 0..=2 {
                for p in 1..=3 {
                    let s = Schedule::new(len, barrier_every, commit_lag).at(&[p]);
                    run::<ShapeA>(&s).unwrap();
                    run::<ShapeB>(&s).unwrap();
                    run::<ShapeC>(&s).unwrap();
                }
            }
        }
    }
}
