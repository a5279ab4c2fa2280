import Foundation

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

    /// Encodes `value` into `box`: dates, data and URLs by the rules, the rest by themselves.
    func encode<Value: Encodable>(_ value: Value, into box: ParameterNode.Box, at path: [any CodingKey]) throws {
        switch value {
        case let date as Date: box.node = .value(rules.text(of: date))
        case let data as Data: box.node = .value(data.base64EncodedString())
        case let url as URL: box.node = .value(url.absoluteString)
        case let decimal as Decimal: box.node = .value(decimal.description)
        default: try value.encode(to: ParameterTreeEncoder(box: box, codingPath: path, rules: rules))
        }
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
            ParameterTreeEncoder(box: child(key), codingPath: codingPath + [key], rules: encoder.rules)
                .container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ParameterTreeEncoder(box: child(key), codingPath: codingPath + [key], rules: encoder.rules)
                .unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            ParameterTreeEncoder(box: child(Key(stringValue: "super")!), codingPath: codingPath, rules: encoder.rules)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            ParameterTreeEncoder(box: child(key), codingPath: codingPath + [key], rules: encoder.rules)
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
            ParameterTreeEncoder(box: next(), codingPath: codingPath, rules: encoder.rules).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            ParameterTreeEncoder(box: next(), codingPath: codingPath, rules: encoder.rules).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            ParameterTreeEncoder(box: next(), codingPath: codingPath, rules: encoder.rules)
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let encoder: ParameterTreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ text: String) { encoder.box.node = .value(text) }

        mutating func encodeNil() throws { encoder.box.node = .empty }
        mutating func encode(_ value: Bool) throws { set(encoder.rules.text(of: value)) }
        mutating func encode(_ value: String) throws { set(value) }
        mutating func encode(_ value: Double) throws { set(ParameterEncoder.number(value)) }
        mutating func encode(_ value: Float) throws { set(ParameterEncoder.number(Double(value))) }
        mutating func encode(_ value: Int) throws { set(String(value)) }
        mutating func encode(_ value: Int8) throws { set(String(value)) }
        mutating func encode(_ value: Int16) throws { set(String(value)) }
        mutating func encode(_ value: Int32) throws { set(String(value)) }
        mutating func encode(_ value: Int64) throws { set(String(value)) }
        mutating func encode(_ value: UInt) throws { set(String(value)) }
        mutating func encode(_ value: UInt8) throws { set(String(value)) }
        mutating func encode(_ value: UInt16) throws { set(String(value)) }
        mutating func encode(_ value: UInt32) throws { set(String(value)) }
        mutating func encode(_ value: UInt64) throws { set(String(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.encode(value, into: encoder.box, at: codingPath)
        }
    }
}
