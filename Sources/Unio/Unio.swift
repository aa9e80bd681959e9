// Unio's logic combines streams with `merge` and `combineLatest`, which OpenCombine 0.14 lacks;
// importing Unio brings the operators that fill the gap, and the virtual-time scheduler.
@_exported import CombineOperators
// Unio is written with RxSwift's names (relays, subjects, `Observable`, `DisposeBag`): importing
// Unio brings them, as the original's users got them from RxSwift.
@_exported import RxSwiftCompatibility
