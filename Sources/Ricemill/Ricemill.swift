// Ricemill's examples use `merge(with:)` and `combineLatest(_:)`, which OpenCombine 0.14 lacks;
// importing Ricemill brings the operators that fill the gap.
@_exported import CombineOperators
