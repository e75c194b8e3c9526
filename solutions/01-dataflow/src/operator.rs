//! Operators: one record in, zero or more records out, pushed into an output buffer.

/// A step of a dataflow: consumes one record and appends its results to `out`.
///
/// Pushing into a caller-owned buffer (rather than returning a `Vec`) lets a chain
/// reuse one allocation per stage and lets an operator emit zero, one or many records
/// with the same signature.
pub trait Operator<In> {
    /// The records this operator emits.
    type Out;

    /// Handles one input record, appending any outputs to `out` in order.
    fn process(&mut self, input: In, out: &mut Vec<Self::Out>);

    /// This operator followed by `next`: every output of `self` is fed to `next`.
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

/// Applies a function to every record.
#[derive(Debug, Clone)]
pub struct Map<F>(pub F);

impl<In, Out, F: FnMut(In) -> Out> Operator<In> for Map<F> {
    type Out = Out;

    fn process(&mut self, input: In, out: &mut Vec<Out>) {
        out.push((self.0)(input));
    }
}

/// Keeps the records for which the predicate holds.
#[derive(Debug, Clone)]
pub struct Filter<F>(pub F);

impl<In, F: FnMut(&In) -> bool> Operator<In> for Filter<F> {
    type Out = In;

    fn process(&mut self, input: In, out: &mut Vec<In>) {
        if (self.0)(&input) {
            out.push(input);
        }
    }
}

/// Replaces every record by the records its function returns, in order.
#[derive(Debug, Clone)]
pub struct FlatMap<F>(pub F);

impl<In, Out, I, F> Operator<In> for FlatMap<F>
where
    F: FnMut(In) -> I,
    I: IntoIterator<Item = Out>,
{
    type Out = Out;

    fn process(&mut self, input: In, out: &mut Vec<Out>) {
        out.extend((self.0)(input));
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
        // Feed the first operator's outputs through the second one by one, so that the
        // second sees them in the order the first emitted them.
        let mut middle = Vec::new();
        self.first.process(input, &mut middle);
        for record in middle {
            self.second.process(record, out);
        }
    }
}
