import TickCore

/// Everything one run of the command line takes from its surroundings, gathered by the caller and
/// passed down: the `tick` executable gathers the process's (`main.swift`); a test gives its own,
/// so that runs in one process share nothing.
///
/// What a run cannot take from here is process-wide and stays so: the time zone (`TZ`, read by the
/// C library through `tzset`, see `LocalTimeZone`), the signal dispositions (`main.swift` ignores
/// SIGPIPE and SIGXFSZ), the process id in temporary names, and the exit status (the executable
/// exits with what `Tick.main` returns). A test that needs its own time zone or a signal's effect
/// runs the real binary.
public struct Context {
    public var environment: [String: String]
    public var fileSystem: any FileSystem
    public var currentDirectory: String
    /// Standard output (results) and standard error (messages).
    public var out: Output
    public var err: Output
    /// Standard input: what `--where` confirmation reads, and `tick lsp`'s messages.
    public var input: Input
    /// Which standard streams are terminals, and how wide standard output's is.
    public var terminals: TerminalFacts
    /// The clock, read when neither `--now` nor `TICK_NOW` pins the moment.
    public var clock: @Sendable () -> Now
    /// The `tick` binary, for what runs tick again: the merge driver's child, the merge driver
    /// setting `tick git-setup` writes, and the reminder timer's unit.
    public var executable: String

    public init(environment: [String: String], fileSystem: any FileSystem, currentDirectory: String,
                out: Output, err: Output, input: Input, terminals: TerminalFacts,
                clock: @escaping @Sendable () -> Now = { Now.system() }, executable: String) {
        self.environment = environment
        self.fileSystem = fileSystem
        self.currentDirectory = currentDirectory
        self.out = out
        self.err = err
        self.input = input
        self.terminals = terminals
        self.clock = clock
        self.executable = executable
    }

    /// Where a program this run starts runs: this run's environment and current folder.
    var surroundings: Subprocess.Surroundings {
        Subprocess.Surroundings(environment: environment, directory: currentDirectory)
    }
}

/// Which standard streams are terminals, and standard output's width.
public struct TerminalFacts: Sendable {
    public var output: Bool
    public var error: Bool
    public var input: Bool
    /// The columns standard output's terminal reports, or nil.
    public var columns: Int?

    public init(output: Bool, error: Bool, input: Bool, columns: Int? = nil) {
        self.output = output
        self.error = error
        self.input = input
        self.columns = columns
    }

    /// No terminal anywhere: output to files or pipes, input from one.
    public static let none = TerminalFacts(output: false, error: false, input: false)

    /// The facts of this process's standard streams.
    public static func ofProcess() -> TerminalFacts {
        TerminalFacts(output: StandardStream.output.isTerminal, error: StandardStream.error.isTerminal,
                      input: StandardInput.isTerminal, columns: StandardStream.output.terminalColumns)
    }
}

/// Standard input: the process's, or bytes given (none for a run without input).
public final class Input {
    private enum Source {
        case process
        case bytes([UInt8], offset: Int)
    }

    private var source: Source

    private init(_ source: Source) { self.source = source }

    /// The process's standard input.
    public static func standardInput() -> Input { Input(.process) }

    /// Input that holds `bytes` and then ends (no bytes: input that is at its end at once, as
    /// /dev/null is).
    public init(bytes: [UInt8] = []) { source = .bytes(bytes, offset: 0) }

    /// One line, without its line feed; nil at the end of input or on an error. At most 1,024
    /// bytes are kept.
    public func readLine() -> String? {
        switch source {
        case .process:
            return StandardInput.readLine()
        case .bytes(let bytes, let offset):
            guard offset < bytes.count else { return nil }
            let end = bytes[offset...].firstIndex(of: 0x0A)
            source = .bytes(bytes, offset: end.map { $0 + 1 } ?? bytes.count)
            return String(decoding: bytes[offset..<(end ?? bytes.count)].prefix(1024), as: UTF8.self)
        }
    }

    /// The bytes input has now, at most `limit`; empty at its end or on an error.
    public func chunk(upTo limit: Int = 1 << 16) -> [UInt8] {
        switch source {
        case .process:
            return StandardInput.chunk(upTo: limit)
        case .bytes(let bytes, let offset):
            let end = min(bytes.count, offset + limit)
            source = .bytes(bytes, offset: end)
            return Array(bytes[offset..<end])
        }
    }
}
