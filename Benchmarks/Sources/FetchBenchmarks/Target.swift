import Foundation

/// A target from the benchmark issue, and whether a measured value meets it.
enum Target: Sendable {
    /// No target for this number.
    case none
    /// At least this value.
    case atLeast(Double, unit: String)
    /// At most this value.
    case atMost(Double, unit: String)

    /// The target as written in the table.
    var text: String {
        switch self {
        case .none: "—"
        case .atLeast(let limit, let unit): "≥ \(Format.number(limit))\(unit)"
        case .atMost(let limit, let unit): "≤ \(Format.number(limit))\(unit)"
        }
    }

    /// "met", "missed by …", or "—" when there is no target or no value.
    func verdict(_ value: Double?) -> String {
        guard let value else { return "not measured" }
        switch self {
        case .none:
            return "—"
        case .atLeast(let limit, let unit):
            return value >= limit ? "met" : "**missed** by \(Format.number(limit - value))\(unit)"
        case .atMost(let limit, let unit):
            return value <= limit ? "met" : "**missed** by \(Format.number(value - limit))\(unit)"
        }
    }
}

/// Number formatting for the report.
enum Format {
    /// Whole numbers as they are; otherwise three decimals below 0.1, two below 10, one below 100, none
    /// above; thousands separated by commas.
    static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        if value == value.rounded() && magnitude < 1e15 { return grouped(Int(value)) }
        if magnitude < 0.1 { return String(format: "%.3f", value) }
        if magnitude < 10 { return String(format: "%.2f", value) }
        if magnitude < 100 { return String(format: "%.1f", value) }
        return grouped(Int(value.rounded()))
    }

    /// An integer with thousands separated by commas.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index).isMultiple(of: 3) { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A ratio such as "0.97x".
    static func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2fx", $0) } ?? "—"
    }

    /// Bytes as MB (10^6 bytes), one decimal.
    static func megabytes(_ bytes: Double?) -> String {
        bytes.map { String(format: "%.1f MB", $0 / 1e6) } ?? "—"
    }
}
