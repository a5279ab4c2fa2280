/// Puts enhancers in the order they run on an outgoing request.
enum EnhancerOrder {
    /// `enhancers` sorted by priority, highest value first and stable for equal values,
    /// then each relative one placed just before or just after its anchor type (in the
    /// order given). A relative enhancer whose anchor is absent counts as ``EnhancerPriority/normal``;
    /// relative enhancers that only anchor on each other are placed last.
    static func sorted(_ enhancers: [any Enhancer]) -> [any Enhancer] {
        let present = Set(enhancers.map { ObjectIdentifier(type(of: $0)) })
        var valued: [(offset: Int, value: Int, enhancer: any Enhancer)] = []
        var relative: [any Enhancer] = []
        for (offset, enhancer) in enhancers.enumerated() {
            switch enhancer.priority.placement {
            case .value(let value): valued.append((offset, value, enhancer))
            case .before(let anchor, _), .after(let anchor, _):
                if present.contains(anchor) {
                    relative.append(enhancer)
                } else {
                    valued.append((offset, EnhancerPriority.normal.value, enhancer))
                }
            }
        }
        valued.sort { $0.value != $1.value ? $0.value > $1.value : $0.offset < $1.offset }
        var ordered = valued.map(\.enhancer)
        var placedRelative: [EnhancerPriority.Placement?] = Array(repeating: nil, count: ordered.count)
        var progress = true
        while !relative.isEmpty && progress {
            progress = false
            var waiting: [any Enhancer] = []
            for enhancer in relative {
                guard let index = insertionIndex(for: enhancer.priority.placement, in: ordered, placed: placedRelative)
                else {
                    waiting.append(enhancer)
                    continue
                }
                ordered.insert(enhancer, at: index)
                placedRelative.insert(enhancer.priority.placement, at: index)
                progress = true
            }
            relative = waiting
        }
        return ordered + relative
    }

    /// Where a relative enhancer goes: before the first of its anchor type (after those
    /// already placed before it), or after the last one (after those already placed after it).
    private static func insertionIndex(
        for placement: EnhancerPriority.Placement, in ordered: [any Enhancer],
        placed: [EnhancerPriority.Placement?]
    ) -> Int? {
        switch placement {
        case .value: return nil
        case .before(let anchor, _):
            return ordered.firstIndex { ObjectIdentifier(type(of: $0)) == anchor }
        case .after(let anchor, _):
            guard var index = ordered.lastIndex(where: { ObjectIdentifier(type(of: $0)) == anchor }) else {
                return nil
            }
            index += 1
            while index < ordered.count, placed[index] == placement { index += 1 }
            return index
        }
    }
}

extension EnhancerPriority {
    /// The numeric value, ``normal``'s for a relative placement.
    var value: Int {
        if case .value(let value) = placement { return value }
        return EnhancerPriority.normal.value
    }
}
