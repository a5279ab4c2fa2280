/// The `Encoder` behind ``ParameterEncoder``, and its own single-value container.
struct ParameterItemEncoder: Encoder, SingleValueEncodingContainer {
    /// What one encoding writes. Used by one encoding, on one thread.
    final class Output {
        var items: [URLQueryItem] = []
        /// Whether the top-level value is a keyed one, the only kind that names its values.
        var topLevelIsKeyed = false
    }

    let output: Output
    /// The name this encoder's value is written under; `nil` for the top-level value.
    let name: String?
    let codingPath: [any CodingKey]
    let rules: ParameterEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if name == nil { output.topLevelIsKeyed = true }
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws {}

    /// Writes single values, dates, data and URLs as one item, by the rules; the rest encode themselves.
    func encode<Value: Encodable>(_ value: Value) throws {
        let text: String
        switch value {
        case let string as String: text = string
        case let bool as Bool: text = rules.boolEncoding == .numeric ? (bool ? "1" : "0") : "\(bool)"
        case let integer as any BinaryInteger: text = "\(integer)"
        case let double as Double: text = ParameterEncoder.number(double)
        case let float as Float: text = ParameterEncoder.number(Double(float))
        case let date as Date: text = rules.text(of: date)
        case let data as Data: text = data.base64EncodedString()
        case let url as URL: text = url.absoluteString
        case let decimal as Decimal: text = decimal.description
        default: return try value.encode(to: self)
        }
        // A top-level single value has no name; ParameterEncoder refuses it.
        if let name { output.items.append(URLQueryItem(name: name, value: text)) }
    }

    func child(_ name: String, at path: [any CodingKey]) -> ParameterItemEncoder {
        ParameterItemEncoder(output: output, name: name, codingPath: path, rules: rules)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ParameterItemEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try child(for: key).encode(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            child(for: key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            child(for: key).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { child(for: Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { child(for: key) }

        private func child(for key: Key) -> ParameterItemEncoder {
            let name = encoder.name.map { "\($0)[\(key.stringValue)]" } ?? key.stringValue
            return encoder.child(name, at: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: ParameterItemEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count = 0

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {
            try next().encode(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            next().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            next().unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { next() }

        private mutating func next() -> ParameterItemEncoder {
            defer { count += 1 }
            let name = encoder.name ?? ""
            switch encoder.rules.arrayEncoding {
            case .brackets: return encoder.child(name + "[]", at: codingPath)
            case .repeated: return encoder.child(name, at: codingPath)
            case .indexed: return encoder.child("\(name)[\(count)]", at: codingPath)
            }
        }
    }
}
