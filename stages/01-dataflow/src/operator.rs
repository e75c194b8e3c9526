//! Operators: one record in, zero or more records out, pushed into an output buffer.

/// A step of a dataflow: consumes one record and appends its results to `out`.
pub trait Operator<In> {
    /// The records this operator emits.
    type Out;

    /// Handles one input record, appending its outputs to `out` in order, after whatever
    /// `out` already holds (01-R7).
    fn process(&mut self, input: In, out: &mut Vec<Self::Out>);

    /// This operator followed by `next`: every output of `self`, in order, is fed to
    /// `next` (01-R8).
    fn then<B>(self, next: B) -> Chain<Self, B>
    where
        Self: Sized,
        B: Operator<Self::Out>,
    {
        Chain {
            first: self,
            second: next,
        }
    }
}

/// Emits `f(x)` for every record `x` (01-R6).
#[derive(Debug, Clone)]
pub struct Map<F>(pub F);

impl<In, Out, F: FnMut(In) -> Out> Operator<In> for Map<F> {
    type Out = Out;

    fn process(&mut self, input: In, out: &mut Vec<Out>) {
        // TODO(stage 01): emit the function's result.
        let _ = (input, out);
        todo!()
    }
}

/// Keeps the records for which the predicate holds (01-R6).
#[derive(Debug, Clone)]
pub struct Filter<F>(pub F);

impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
    type Out = In;

    fn process(&mut self, input: In, out: &mut Vec<In>) {
        // TODO(stage 01): emit `input` only when the predicate holds for it.
        let _ = (input, out);
        todo!()
    }
}

/// Replaces every record by the records its function returns (01-R6), in order (01-R7).
#[derive(Debug, Clone)]
pub struct FlatMap<F>(pub F);

impl<In, Out, I, F> Operator<In> for FlatMap<F>
where
    F: FnMut(In) -> I,
    I: IntoIterator<Item = Out>,
{
    type Out = Out;

    fn process(&mut self, input: In, out: &mut Vec<Out>) {
        // TODO(stage 01): emit every record the function returns, in order.
        let _ = (input, out);
        todo!()
    }
}

/// Two operators in sequence, built by [`Operator::then`].
#[derive(Debug, Clone)]
pub struct Chain<A, B> {
    first: A,
    second: B,
}

impl<In, A, B> Operator<In> for Chain<A, B>
where
    A: Operator<In>,
    B: Operator<A::Out>,
{
    type Out = B::Out;

    fn process(&mut self, input: In, out: &mut Vec<B::Out>) {
        // TODO(stage 01): run `self.first` on `input`, then feed each of its outputs,
        // in order, to `self.second`.
        let _ = (input, out, &self.first, &self.second);
        todo!()
    }
}
