// Unio's logic combines streams with `merge` and `combineLatest`, which OpenCombine 0.14 lacks;
// importing Unio brings the operators that fill the gap, and the virtual-time scheduler.
@_exported import CombineOperators
