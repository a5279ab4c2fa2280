import Foundation

/// Runs this program again in a fresh process for one measurement, and reads back the
/// result it prints.
enum Child {
    /// The marker before the JSON result on a child's standard output.
    static let marker = "RESULT "

    /// A child's failure.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Prints `value` as a child's result.
    static func report<Value: Encodable>(_ value: Value) throws {
        let json = try JSONEncoder().encode(value)
        print(marker + String(decoding: json, as: UTF8.self))
    }

    /// Runs `arguments` in a child process, with `environment` added to this process's
    /// environment, and decodes its result. With a `launcher` (a command and its arguments),
    /// the launcher runs and is handed this program and `arguments` to run.
    /// - Throws: ``Failure`` when the child fails or prints no result.
    static func run<Value: Decodable>(
        _ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
        as type: Value.Type
    ) throws -> Value {
        let process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let program =
            Bundle.main.executableURL
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [program.path] + arguments
        } else {
            process.executableURL = program
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix(marker) })
        else {
            throw Failure(
                description: "child \(arguments.joined(separator: " ")) exited with "
                    + "\(process.terminationStatus) and printed: \(text.suffix(500))")
        }
        return try JSONDecoder().decode(Value.self, from: Data(line.dropFirst(marker.count).utf8))
    }
}
