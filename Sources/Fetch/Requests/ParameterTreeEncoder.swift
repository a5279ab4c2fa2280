/// What one value encodes to, before it is flattened into query items.
enum ParameterNode {
    /// Nothing (`nil`, or a container left empty by a value that encoded nothing).
    case empty
    /// A single value's text.
    case value(String)
    /// Named fields, in the order they were encoded.
    case keyed([(String, Box)])
    /// Elements, in order.
    case list([Box])

    /// A node that containers fill in as the value encodes itself. Used by one encoding,
    /// on one thread.
    final class Box {
        var node: ParameterNode = .empty
    }
}

/// The `Encoder` behind ``ParameterEncoder``: builds a ``ParameterNode`` tree.
struct ParameterTreeEncoder: Encoder {
    let box: ParameterNode.Box
    let codingPath: [any CodingKey]
    let rules: ParameterEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = box.node {} else { box.node = .keyed([]) }
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = box.node {} else { box.node = .list([]) }
        return Unkeyed(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// Encodes `value` into `box`: single values, dates, data and URLs by the rules, the rest
    /// by themselves.
    func encode<Value: Encodable>(_ value: Value, into box: ParameterNode.Box, at path: [any CodingKey]) throws {
        switch value {
        case let string as String: box.node = .value(string)
        case let bool as Bool: box.node = .value(rules.text(of: bool))
        case let integer as any BinaryInteger: box.node = .value("\(integer)")
        case let double as Double: box.node = .value(ParameterEncoder.number(double))
        case let float as Float: box.node = .value(ParameterEncoder.number(Double(float)))
        case let date as Date: box.node = .value(rules.text(of: date))
        case let data as Data: box.node = .value(data.base64EncodedString())
        case let url as URL: box.node = .value(url.absoluteString)
        case let decimal as Decimal: box.node = .value(decimal.description)
        default: try value.encode(to: ParameterTreeEncoder(box: box, codingPath: path, rules: rules))
        }
    }

    /// An encoder for the child `box` at `path`, with the same rules.
    func child(_ box: ParameterNode.Box, at path: [any CodingKey]) -> ParameterTreeEncoder {
        ParameterTreeEncoder(box: box, codingPath: path, rules: rules)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ParameterTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func child(_ key: Key) -> ParameterNode.Box {
            let box = ParameterNode.Box()
            guard case .keyed(var fields) = encoder.box.node else { return box }
            fields.append((key.stringValue, box))
            encoder.box.node = .keyed(fields)
            return box
        }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.encode(value, into: child(key), at: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            superEncoder(forKey: key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            superEncoder(forKey: key).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            encoder.child(child(Key(stringValue: "super")!), at: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.child(child(key), at: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: ParameterTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int {
            if case .list(let elements) = encoder.box.node { return elements.count }
            return 0
        }

        private func next() -> ParameterNode.Box {
            let box = ParameterNode.Box()
            guard case .list(var elements) = encoder.box.node else { return box }
            elements.append(box)
            encoder.box.node = .list(elements)
            return box
        }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.encode(value, into: next(), at: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            superEncoder().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            superEncoder().unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            encoder.child(next(), at: codingPath)
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoder: ParameterTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.box.node = .empty }
        /// Every single value: ``ParameterTreeEncoder/encode(_:into:at:)`` writes the text
        /// of strings, booleans and numbers itself.
        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.encode(value, into: encoder.box, at: codingPath)
        }
    }
}
