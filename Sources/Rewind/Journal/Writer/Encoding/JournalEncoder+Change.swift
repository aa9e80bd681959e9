extension JournalEncoder {
    /// A key-path change: its path (with any subscript's index found), its new value — whole, or
    /// as the changes from the value at its path in the block's last state record — and, outside a
    /// commit, the state after it.
    ///
    /// A subscript's index (`items[…].done` → `items[3].done`) is found by comparing the live
    /// states before and after the change, which costs what changed — or, when the write changed
    /// nothing, by writing another value into a copy (``SubscriptProbe``). Where that cannot be done,
    /// the redaction check for a path that does not name its fields captures the state after the
    /// change; that capture is the state here too, rather than being taken twice — and, compared
    /// with the state before, it tells which element the subscript wrote.
    func changeStep(_ changedPath: ChangedPath, value changedValue: LoggedValue, state: LoggedValue?, track: inout SourceTrack) -> EncodedStep {
        let options = configuration.captureOptions
        let shape = shapes.shape(of: changedPath)
        if !track.keepsLiveState, shape.throughSubscript || shapes.isList(changedValue.value) { track.keepsLiveState = true }
        // A value written through a subscript is captured first: compared with the state before,
        // it tells which element was written without capturing the element.
        let written = shape.throughSubscript ? StateCapture.capture(changedValue.value, options: options) : nil
        var liveResolution = shape.subscripted.flatMap { subscripted in
            track.liveState.flatMap { before in
                state.flatMap {
                    SubscriptResolution.resolve(subscripted, liveBefore: before, liveAfter: $0.value, options: options, treeBefore: track.stateBeforeChange, written: written)
                }
            }
        }
        // No element differs when the write set the value already there: the key path, written
        // into a copy with another value, tells where it leads.
        if liveResolution == nil, let subscripted = shape.subscripted, let keyPath = changedPath.keyPath, let after = state?.value {
            liveResolution = SubscriptProbe.resolve(subscripted, keyPath: keyPath, state: after, written: changedValue.value, options: options)
        }
        let reused = liveResolution == nil ? shape.path.flatMap { capture(changedValue, at: $0, reusing: track) } : nil
        track.liveState = state?.value
        // The resolved path's text is made once: the redaction rules and the record both need it.
        var text = liveResolution?.description ?? shape.text
        let (judged, capturedState) = changedValue.treeAndCapturedState(
            options: options, pathText: text, pathIsShownByName: liveResolution == nil && shape.isShownByName, captured: reused ?? written
        )
        var captured = judged
        var resolved = liveResolution
        if let subscripted = shape.subscripted, liveResolution == nil, let after = capturedState, let before = track.stateBeforeChange {
            resolved = SubscriptResolution.resolve(subscripted, before: before, after: after)
            if let resolved { text = resolved.description }
        } else if shape.text == "…", let after = capturedState, let before = track.stateBeforeChange,
            let field = SubscriptResolution.resolveUnnamedField(before: before, after: after), let shown = after[field],
            shown.containsRedaction || shown == captured
        {
            // A property wrapper's field (`@Secret var password`): its path is kept, so that
            // blame follows it — only where the state after it holds what was written — and its
            // value is recorded as that state shows it. The value alone was judged without a name
            // (shown if the state shows it anywhere: a secret equal to another field), so a
            // secret field's value is hidden here, and a setter that wrote something else (a
            // clamp) leaves the path unnamed.
            resolved = field
            text = field.description
            captured = shown
        }
        let path = resolved ?? shape.path
        let isScalar = !captured.isContainer
        // A list or object is written as a diff from the recorded state, which a running commit
        // may have borrowed: it is given back first.
        if !isScalar || track.commitDepth == 0 { track.reclaimState() }
        let body: WireRecord.Body = diffFromRecordedState(captured, at: path, track: track)
            .map { .changeFromState(path: text, diff: $0) } ?? .change(path: text, value: captured)
        // A hidden value says nothing about the state (the state's own capture hides it under
        // another name), so such a change leaves the state to be captured.
        let settable = captured != .null && !captured.containsRedaction
        let applied: (StateValue) -> (tree: StateValue, change: StateChange?)? = { previous in
            settable ? path.flatMap { previous.settingChange(captured, at: $0) } : nil
        }
        let change = (path: path, value: captured)
        if track.commitDepth > 0 {
            // The common case: a scalar set at a place the state has, changed in place.
            if capturedState == nil, settable, isScalar, let path, track.setInPlace(captured, at: path) {
                return EncodedStep(body: body, change: change)
            }
            track.reclaimState()
            // The state captured for the redaction is the state after this change already. A
            // change to nil: Codable drops the field, reflection keeps it as null — only a capture
            // can tell, so without one the commit's state will be captured.
            if let capturedState {
                track.derivedState = capturedState
                track.derivedChanges = nil
                track.derivedIsReaderView = false
            } else {
                let derived = track.derivedState.flatMap(applied)
                track.derivedState = derived?.tree
                track.derivedChanges = Self.appending(derived?.change, of: captured, to: track.derivedChanges)
            }
            return EncodedStep(body: body, change: change)
        }
        // Outside a commit no didMutate follows: this event carries the state.
        if let newState = capturedState ?? state?.tree(options: options, reusing: track.lists) {
            return EncodedStep(body: body, newState: newState, change: change)
        }
        let derived = track.state.flatMap(applied)
        return EncodedStep(body: body, newState: derived?.tree, knownChanges: Self.appending(derived?.change, of: captured, to: []).flatMap(Self.stateDiff), change: change)
    }

    /// The changes known so far with `change` (setting `value`) after them — a change that set
    /// what was there already adds nothing — or `nil` when they can no longer be told without
    /// comparing states: a list or object set whole is recorded as what changed inside it.
    private static func appending(_ change: StateChange?, of value: StateValue, to changes: [StateChange]?) -> [StateChange]? {
        guard var changes, let change else { return change == nil ? changes : nil }
        switch value {
        case .array, .object: return nil
        default: break
        }
        guard case .changed = change.operation else { return nil }
        changes.append(change)
        return changes
    }

    /// A change's new value, when it is a list that shares its front and back with the list it
    /// replaced, captured by taking the shared elements' trees from the state before the change:
    /// what a list that grew by one item costs is capturing that item.
    private func capture(_ value: LoggedValue, at path: StatePath, reusing track: SourceTrack) -> StateValue? {
        guard shapes.isList(value.value), let elements = value.value as? any LiveElements,
              let previousTree = track.stateBeforeChange?[path],
              let previous = track.liveState.flatMap({ LiveValue.value(at: path, in: $0) }) else { return nil }
        return elements.capture(reusing: previousTree, of: previous, options: configuration.captureOptions)
    }

    /// A change's new value as the changes from the value at its path in the source's last state
    /// record, when that record is in the open block (a reader rebuilds the value from it) and the
    /// changes are much smaller than the value: a list that grew by one item is recorded as that
    /// item. `nil` otherwise; the value is then written whole.
    private func diffFromRecordedState(_ value: StateValue, at path: StatePath?, track: SourceTrack) -> StateDiff? {
        switch value {
        case .array, .object: break
        default: return nil
        }
        guard track.keyframedInBlock, let path, let old = track.state?[path] else { return nil }
        let changes = StateDiff(from: old, to: value)
        return value.weighs(moreThan: 2 * changes.weight + 8) ? changes : nil
    }
}
