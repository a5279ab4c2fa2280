enum EnhancerOrder {
    /// By priority, highest first and stable; a relative one goes just before the first or after the last of its anchor
    /// type (``EnhancerPriority/normal`` when that type is absent), ones anchored only on each other last. Keys:
    /// `[-value, index, 0]`, or the anchor's with `[-1 or 1, index, 0]` for its last `0`.
    static func sorted(_ enhancers: [any Enhancer]) -> [any Enhancer] {
        let types = enhancers.map { ObjectIdentifier(type(of: $0)) }
        var keys: [Int: [Int]] = [:]
        var resolving: Set<Int> = []
        func key(_ index: Int, _ placement: EnhancerPriority.Placement) -> [Int]? {
            if let known = keys[index] { return known }
            let (anchor, side): (ObjectIdentifier, Int)
            switch placement {
            case .value(let value): return [-value, index, 0]
            case .beside(let type, _, let placed): (anchor, side) = (type, placed)
            }
            guard types.contains(anchor) else { return key(index, EnhancerPriority.normal.placement) }
            // An enhancer met again while its own key is sought is in a cycle: it has no key.
            guard resolving.insert(index).inserted else { return nil }
            defer { resolving.remove(index) }
            let anchors = types.indices.filter { types[$0] == anchor }.compactMap {
                key($0, enhancers[$0].priority.placement)
            }
            let precedes: ([Int], [Int]) -> Bool = { $0.lexicographicallyPrecedes($1) }
            guard let place = side < 0 ? anchors.min(by: precedes) : anchors.max(by: precedes) else { return nil }
            keys[index] = place.dropLast() + [side, index, 0]
            return keys[index]
        }
        let keyed = enhancers.indices.map { (key: key($0, enhancers[$0].priority.placement), index: $0) }
        let placed = keyed.compactMap { entry in entry.key.map { ($0, entry.index) } }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
        return placed.map { enhancers[$0.1] } + keyed.filter { $0.key == nil }.map { enhancers[$0.index] }
    }
}
