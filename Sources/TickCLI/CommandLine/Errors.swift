import TickCore

/// An error that `tick` reports as one line on standard error and an exit status.
///
/// Every error a command throws ends in `Tick.report`; the error types of the lower layers
/// conform here, so that the mapping to exit statuses lives in this one file.
protocol ReportableError: Error {
    var exitStatus: ExitStatus { get }
    /// One line, without the `tick: ` prefix.
    var message: String { get }
}

// MARK: - Usage

/// The command line is wrong: exit status 2.
enum UsageError: Error, Equatable, ReportableError {
    case unknownCommand(String, in: String, suggestion: String?)
    /// A format `export` or `import` does not know (`tick export csv`).
    case unknownFormat(String, in: String, formats: [String], suggestion: String?)
    case unknownOption(String, suggestion: String?)
    case missingValue(option: String, valueName: String)
    case unexpectedValue(option: String)
    /// An option that takes one value, given twice.
    case repeatedOption(String)
    case invalidChoice(option: String, value: String, choices: [String], suggestion: String?)
    case invalidValue(option: String, value: String, reason: String)
    case missingArgument(String, usage: String)
    case unexpectedArgument(String, usage: String)
    case missingSubcommand(in: String, choices: [String])
    /// Bad input that is not about the shape of the command line (an empty title, a missing file).
    case invalidInput(String)

    var exitStatus: ExitStatus { .usage }

    var message: String {
        switch self {
        case .unknownCommand(let name, let parent, let suggestion):
            return "unknown command '\(name)'" + didYouMean(suggestion) + " (see '\(parent) --help')"
        case .unknownFormat(let name, let parent, let formats, let suggestion):
            return "unknown format '\(name)'" + didYouMean(suggestion)
                + " (expected \(listing(formats, conjunction: "or")); see '\(parent) --help')"
        case .unknownOption(let text, let suggestion):
            return "unknown option '\(text)'" + didYouMean(suggestion)
        case .missingValue(let option, let valueName):
            return "option '--\(option)' needs a value \(valueName)"
        case .unexpectedValue(let option):
            return "option '--\(option)' takes no value"
        case .repeatedOption(let option):
            return "option '--\(option)' is given more than once; give it once"
        case .invalidChoice(let option, let value, let choices, let suggestion):
            return "invalid value '\(value)' for '--\(option)'" + didYouMean(suggestion)
                + " (expected \(listing(choices, conjunction: "or")))"
        case .invalidValue(let option, let value, let reason):
            return "invalid value '\(value)' for \(option): \(reason)"
        case .missingArgument(let name, let usage):
            return "missing \(name) (usage: \(usage))"
        case .unexpectedArgument(let value, let usage):
            return "unexpected argument '\(value)' (usage: \(usage))"
        case .missingSubcommand(let parent, let choices):
            return "'\(parent)' needs a command: \(listing(choices, conjunction: "or"))"
        case .invalidInput(let message):
            return message
        }
    }

    private func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}

/// `a, b or c`.
func listing(_ items: [String], conjunction: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
}

// MARK: - Command failures

/// A command's own failure, with the status it means (a negative answer is 1).
struct CommandFailure: Error, ReportableError {
    var exitStatus: ExitStatus
    var message: String

    init(_ exitStatus: ExitStatus, _ message: String) {
        self.exitStatus = exitStatus
        self.message = message
    }
}

// MARK: - Lower layers

extension FileSystemError: ReportableError {
    var exitStatus: ExitStatus { .io }
    var message: String { description }
}

extension StorageError: ReportableError {
    var exitStatus: ExitStatus {
        switch self {
        case .io, .danglingLink, .incomplete: return .io
        case .changedMeanwhile, .conflictMarkers, .nothingToUndo, .changedSinceLastChange, .changedLines, .keptBackup: return .negative
        case .outsideFolder, .exists: return .usage
        }
    }
    var message: String { description }
}

extension DateError: ReportableError {
    var exitStatus: ExitStatus { .usage }
    var message: String { description }
}

extension FolderError: ReportableError {
    var exitStatus: ExitStatus { .usage }
    var message: String { description }
}

extension MutationError: ReportableError {
    var exitStatus: ExitStatus {
        switch self {
        case .taskGone, .listGone, .changedWhileMoving, .noSuchSection, .noFolder, .refused: return .negative
        case .badListName, .listExists, .openTasks, .badValue, .symbolicLink: return .usage
        }
    }
    var message: String { description }
}

extension TitleInputError: ReportableError {
    var exitStatus: ExitStatus { .usage }
    var message: String { description }
}

// MARK: - Reporting

extension Tick {
    /// The one place where an error becomes a message on standard error and an exit status.
    static func report(_ error: any Error, to err: Output) -> ExitStatus {
        if let error = error as? any ReportableError {
            err.line("tick: " + error.message)
            return error.exitStatus
        }
        err.line("tick: internal error: \(error) (this is a bug in tick; please report it)")
        return .internal
    }
}
