/// One command of `tick`, as data: its name, help, arguments, options and what it runs.
///
/// The parser, `tick --help`, `tick help COMMAND` and `tick COMMAND --help` all read this table
/// (`Commands.root`); nothing about a command is written down anywhere else.
struct Command: Sendable {
    /// What a command does once its arguments are parsed.
    typealias Run = @Sendable (Invocation) throws -> ExitStatus

    /// The word typed on the command line.
    var name: String
    /// What it does to the task folder: auto-commit and `--dry-run` go by it.
    var effect: Effect
    /// One line, no final period: shown in command lists and as the first line of the command's help.
    var summary: String
    /// Further paragraphs for the command's own help (blank-line separated), or "": made when help
    /// is shown, so that a run that shows none never builds the text.
    var discussion: String { makeDiscussion() }
    private let makeDiscussion: @Sendable () -> String
    var arguments: [Argument]
    var options: [Option]
    /// Commands one level down (`tick list new`); the first positional word selects one.
    var subcommands: [Command]
    /// What runs when this command is selected; nil for a group that needs a subcommand.
    var run: Run?
    /// The subcommands are formats (`tick export ics`): an unknown one is an "unknown format".
    var subcommandsAreFormats: Bool

    /// A command whose options are the typed keys its `run` looks their values up by.
    init(name: String, effect: Effect, summary: String, discussion: @autoclosure @escaping @Sendable () -> String = "",
         arguments: [Argument] = [], options: [any OptionKey] = [], subcommands: [Command] = [],
         subcommandsAreFormats: Bool = false, run: Run? = nil) {
        self.name = name
        self.effect = effect
        assert(effect == .write || !options.contains { $0.option.name == Option.dryRun },
               "'\(name)' writes nothing: it takes no --\(Option.dryRun)")
        self.summary = summary
        makeDiscussion = discussion
        self.arguments = arguments
        self.options = options.map(\.option)
        self.subcommands = subcommands
        self.subcommandsAreFormats = subcommandsAreFormats
        self.run = run
    }

    func subcommand(named name: String) -> Command? { subcommands.first { $0.name == name } }

    func option(named name: String) -> Option? { options.first { $0.name == name } }

    func option(short: Character) -> Option? { options.first { $0.short == short } }
}

/// What a command does to the task folder, declared with it in the command table (as Taskwarrior's
/// commands declare `read_only()`), so that what runs around a command asks the table, not a list
/// of names.
enum Effect: Equatable, Sendable {
    /// Changes no list and no setting (it may refresh tick's own state under `.tick/`: the cache,
    /// the pick memory). Auto-commit leaves it alone.
    case read
    /// Changes, or may change with some option (`pick --done`, `export ics --assign-ids`), lists,
    /// settings or reminder state. With `autocommit = true`, what it wrote is committed; given
    /// `--dry-run`, it writes nothing and runs as a read.
    case write
    /// Sets up the folder or its git repository, or runs around or inside git (`init`, `git-setup`,
    /// `sync`, `merge-driver`): it leaves committing to git, and auto-commit leaves it alone.
    case managesGit
}

/// A positional argument, declared once in the command table; a command looks its values up by
/// the same value (`Invocation.value(_:)`).
struct Argument: Equatable, Sendable {
    enum Arity: Equatable, Sendable {
        /// Exactly one.
        case required
        /// Zero or one.
        case optional
        /// Zero or more.
        case zeroOrMore
        /// One or more.
        case oneOrMore
    }

    /// Upper-case name shown in usage (`FILE`).
    var name: String
    var help: String
    var arity: Arity = .required

    /// `FILE`, `[FILE]`, `[FILE...]` or `FILE...`.
    var usage: String {
        switch arity {
        case .required: return name
        case .optional: return "[\(name)]"
        case .zeroOrMore: return "[\(name)...]"
        case .oneOrMore: return "\(name)..."
        }
    }
}

/// A `--name` option: a flag, or one that takes a value. Declared through a typed key (`Flag`,
/// `ValueOption`), which is also what a command looks it up by.
struct Option: Equatable, Sendable {
    /// Long name without dashes (`list` for `--list`).
    var name: String
    /// The name of the flag that makes a writing command write nothing (`Effect.write`).
    static let dryRun = "dry-run"
    /// An optional one-letter form (`-h`).
    var short: Character? = nil
    /// The value's name in help (`LIST`), or nil for a flag.
    var valueName: String? = nil
    /// Made when help is shown (some is built from tables, such as the colour names).
    var help: String { makeHelp() }
    private let makeHelp: @Sendable () -> String
    /// When not empty, the only values accepted.
    var choices: [String] = []

    init(name: String, short: Character? = nil, valueName: String? = nil, help: @autoclosure @escaping @Sendable () -> String,
         choices: [String] = []) {
        self.name = name
        self.short = short
        self.valueName = valueName
        makeHelp = help
        self.choices = choices
    }

    static func == (a: Option, b: Option) -> Bool {
        a.name == b.name && a.short == b.short && a.valueName == b.valueName && a.choices == b.choices && a.help == b.help
    }

    var isFlag: Bool { valueName == nil }

    /// `-h, --help` or `--list LIST`.
    var usage: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// An option as the command table declares it and as a command looks it up: its type says
/// whether it takes a value.
protocol OptionKey: Sendable {
    var option: Option { get }
}

/// A flag (`--all`): given or not.
struct Flag: OptionKey {
    let option: Option

    init(_ name: String, short: Character? = nil, help: @autoclosure @escaping @Sendable () -> String) {
        option = Option(name: name, short: short, help: help())
    }
}

/// An option that takes one value (`--list LIST`), from `choices` when they are given.
struct ValueOption: OptionKey {
    let option: Option

    init(_ name: String, short: Character? = nil, valueName: String, help: @autoclosure @escaping @Sendable () -> String,
         choices: [String] = []) {
        option = Option(name: name, short: short, valueName: valueName, help: help(), choices: choices)
    }
}

/// The exit statuses of `tick`, documented in the README; `tick --help` renders its table from
/// `meaning`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done.
    case success = 0
    /// A negative answer: not found, ambiguous, conflict, problems found.
    case negative = 1
    /// Bad usage or bad input.
    case usage = 2
    /// An I/O error.
    case io = 3
    /// An internal error: a bug in tick.
    case `internal` = 4
    /// No git repository, or no remote to sync with.
    case noRepository = 5
    /// The network failed (a git fetch or push).
    case network = 6
}

extension ExitStatus {
    /// What the status means, as `tick --help` says it: README's "Exit codes" table without its
    /// backquotes, word for word (a test compares the two, so that they cannot drift).
    var meaning: String {
        switch self {
        case .success: return "success"
        case .negative:
            return "a negative answer: not found, ambiguous, conflict, or tick check found problems; a listing "
                + "given a query (find, search, view NAME, or any view or ls with --where) that matched no task (a "
                + "view or list without a query exits 0 when empty); tick remind --exec: PROGRAM failed for a "
                + "reminder (it is reported again next time); vdirsyncer stopped at a conflict it did not resolve "
                + "(tick sync and tick vdir sync --vdirsyncer with vdir.pair)"
        case .usage: return "bad usage or bad input"
        case .io: return "an I/O error: permissions, a full disk"
        case .internal:
            return "an internal error; a failed round trip (tick could not reproduce a file byte for byte) is one"
        case .noRepository: return "no git repository, or no remote (git-setup, sync)"
        case .network: return "the network failed (sync); vdirsyncer failed (vdir sync --vdirsyncer, and sync with vdir.pair)"
        }
    }
}
