import OrderedCollections

extension CaptureSession {
    /// Captures a value that is not Encodable (or whose encoding failed) by reflection.
    func captureByMirror(_ value: Any, depth: Int) -> StateValue {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return .null }
            return capture(wrapped, depth: depth)
        case .collection:
            return .array(mirror.children.map { capture($0.value, depth: depth + 1) })
        case .set:
            return ordered(.array(mirror.children.map { capture($0.value, depth: depth + 1) }), isDictionary: false)
        case .dictionary:
            return captureDictionary(mirror, depth: depth)
        case .enum:
            return captureEnumCase(value, mirror: mirror, depth: depth)
        case .tuple:
            return .object(fields(of: mirror, depth: depth, positionalPrefix: ""))
        case .struct, .class:
            return captureFields(value, mirror: mirror, depth: depth)
        default:
            return captureFields(value, mirror: mirror, depth: depth)
        }
    }

    private func captureFields(_ value: Any, mirror: Mirror, depth: Int) -> StateValue {
        var fields = fields(of: mirror, depth: depth, positionalPrefix: "")
        // A class's stored properties include its superclasses'.
        var ancestor = mirror.superclassMirror
        while let superMirror = ancestor {
            let inherited = self.fields(of: superMirror, depth: depth, positionalPrefix: "")
            fields = inherited.merging(fields) { _, own in own }
            ancestor = superMirror.superclassMirror
        }
        if fields.isEmpty && mirror.displayStyle != .struct && mirror.displayStyle != .class {
            // Something reflection cannot look into: a closure, a metatype, a C pointer.
            return .opaque(OpaqueValue(typeName: Self.typeName(of: value), text: String(describing: value)))
        }
        return .object(fields)
    }

    private func fields(of mirror: Mirror, depth: Int, positionalPrefix: String) -> OrderedDictionary<String, StateValue> {
        var fields: OrderedDictionary<String, StateValue> = [:]
        for (position, child) in mirror.children.enumerated() {
            var key = child.label ?? "\(positionalPrefix)\(position)"
            // Tuples label unnamed elements ".0", ".1"; property wrappers store `_name`.
            if key.hasPrefix(".") { key.removeFirst() }
            if key.hasPrefix("_"), child.value is any PropertyWrapperStorage { key.removeFirst() }
            if options.redaction.redacts(key: key) {
                fields[key] = .opaque(options.redactedLeaf(typeName: Self.typeName(of: child.value), of: child.value))
            } else {
                fields[key] = capture(child.value, depth: depth + 1)
            }
        }
        return fields
    }

    /// Captures named values as an object, redacting by name as for any other field.
    func capture(_ stateFields: StateFields, depth: Int) -> StateValue {
        var fields: OrderedDictionary<String, StateValue> = [:]
        for (name, value) in stateFields.fields {
            fields[name] = options.redaction.redacts(key: name)
                ? .opaque(options.redactedLeaf(typeName: Self.typeName(of: value), of: value))
                : capture(value, depth: depth + 1)
        }
        return .object(fields)
    }

    private func captureEnumCase(_ value: Any, mirror: Mirror, depth: Int) -> StateValue {
        guard let payload = mirror.children.first else {
            // A case without associated values is its name, as Codable writes a raw-value enum.
            return .string(String(describing: value))
        }
        let caseName = payload.label ?? String(describing: value)
        // A case named like a secret (`setToken("…")`) hides its whole payload, labelled or not.
        if options.redaction.redacts(key: caseName) {
            return .object([caseName: .opaque(options.redactedLeaf(typeName: Self.typeName(of: payload.value), of: payload.value))])
        }
        let payloadMirror = Mirror(reflecting: payload.value)
        let associated: StateValue
        if payloadMirror.displayStyle == .tuple {
            associated = .object(fields(of: payloadMirror, depth: depth + 1, positionalPrefix: "_"))
        } else {
            // Codable's synthesized form for a single unlabelled associated value is `_0`.
            associated = .object(["_0": capture(payload.value, depth: depth + 2)])
        }
        return .object([caseName: associated])
    }

    private func captureDictionary(_ mirror: Mirror, depth: Int) -> StateValue {
        var entries: [(key: StateValue, value: StateValue)] = []
        for child in mirror.children {
            let pair = Mirror(reflecting: child.value).children.map(\.value)
            guard pair.count == 2 else { continue }
            entries.append((capture(pair[0], depth: depth + 1), capture(pair[1], depth: depth + 1)))
        }
        let stringKeys = entries.compactMap { entry -> String? in
            switch entry.key {
            case .string(let key): key
            case .integer(let key): String(key)
            default: nil
            }
        }
        if stringKeys.count == entries.count {
            var fields: OrderedDictionary<String, StateValue> = [:]
            for (key, entry) in zip(stringKeys, entries) {
                fields[key] = options.redaction.redacts(key: key)
                    ? .opaque(options.redactedLeaf(typeName: entry.value.shapeName, of: entry.value)) : entry.value
            }
            return StableOrder.sorted(.object(fields), isDictionary: true)
        }
        return ordered(.array(entries.flatMap { [$0.key, $0.value] }), isDictionary: true)
    }

    /// The tree of an unordered collection in its stable order (see ``StableOrder``). A dictionary
    /// whose keys are not strings is a flat list of key/value pairs; a pair whose key is text (a
    /// `String`-backed enum such as `case password`) is redacted by that name like any field.
    func ordered(_ tree: StateValue, isDictionary: Bool) -> StateValue {
        let sorted = StableOrder.sorted(tree, isDictionary: isDictionary)
        guard isDictionary, case .array(var pairs) = sorted, pairs.count.isMultiple(of: 2) else { return sorted }
        for index in stride(from: 0, to: pairs.count, by: 2) {
            guard case .string(let key) = pairs[index], options.redaction.redacts(key: key) else { continue }
            pairs[index + 1] = .opaque(options.redactedLeaf(typeName: pairs[index + 1].shapeName, of: pairs[index + 1]))
        }
        return .array(pairs)
    }
}

/// Property wrappers whose storage (`_name`) should be shown under the wrapped property's name.
protocol PropertyWrapperStorage {}
