import TickCore

// `tick remind --install-timer`: the systemd user units that run tick remind every 5 minutes.

/// The names of the units.
enum RemindTimer {
    static let service = "tick-remind.service"
    static let timer = "tick-remind.timer"
    static let enable = "systemctl --user daemon-reload && systemctl --user enable --now " + timer

    /// `${XDG_CONFIG_HOME:-~/.config}/systemd/user`, or nil without an absolute XDG_CONFIG_HOME or HOME.
    static func directory(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return Path.join(xdg, "systemd/user") }
        if let home = environment["HOME"], home.hasPrefix("/") { return Path.join(home, ".config/systemd/user") }
        return nil
    }

    /// One word of an `ExecStart=` line: as it is when it holds only plain characters, else in double
    /// quotes with `\` and `"` escaped; `%` (a specifier) is `%%` and `$` (a variable) is `$$` either way.
    static func word(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._+:@=,-".unicodeScalars.contains($0)
        }
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "%": out += "%%"
            case "$": out += "$$"
            case "\\" where !plain: out += "\\\\"
            case "\"" where !plain: out += "\\\""
            default: out.unicodeScalars.append(c)
            }
        }
        return plain ? out : "\"" + out + "\""
    }

    /// The service unit: one run of `tick --dir FOLDER remind [--within D] [--exec PROGRAM | --notify]`.
    static func serviceText(binary: String, folder: String, within: String?, program: String?, notify: Bool = false) -> String {
        var command = [binary, "--dir", folder, "remind"]
        if let within { command += ["--within", within] }
        if let program { command += ["--exec", program] } else if notify { command.append("--notify") }
        return """
            # Written by tick remind --install-timer; running it again rewrites this file.
            [Unit]
            Description=tick remind for the task folder \(folder.replacingPercent)

            [Service]
            Type=oneshot
            ExecStart=\(command.map(word).joined(separator: " "))

            """
    }

    /// The timer unit: every 5 minutes, and at start-up for a run the machine slept through.
    static let timerText = """
        # Written by tick remind --install-timer; running it again rewrites this file.
        [Unit]
        Description=Run tick remind every 5 minutes

        [Timer]
        OnCalendar=*:0/5
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
}

extension String {
    /// `%` doubled, as systemd unit files need outside specifiers.
    fileprivate var replacingPercent: String {
        var out = ""
        for c in unicodeScalars { if c == "%" { out += "%%" } else { out.unicodeScalars.append(c) } }
        return out
    }
}

/// `tick remind --install-timer [--exec PROGRAM] [--within D] [--dry-run]`.
func installTimer(_ invocation: Invocation, program: String?, notify asked: Bool) throws -> ExitStatus {
    let environment = invocation.context.environment
    guard let directory = RemindTimer.directory(environment) else {
        throw UsageError.invalidInput("--install-timer writes under $XDG_CONFIG_HOME or $HOME, and neither is an absolute path")
    }
    let folder = try invocation.folder().path
    let binary = invocation.context.executable
    // The --exec program by its resolved path: a relative one (`./prog`) gained the working folder's.
    let paths = [("the task folder", folder), ("the tick binary", binary)] + (program.map { [("the --exec program", $0)] } ?? [])
    for (what, path) in paths
    where path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        throw UsageError.invalidInput("the path of \(what) has a control character, which a unit file cannot hold")
    }
    // Without --exec, a desktop notification when notify-send is there: else the journal alone sees them.
    let notifier = program == nil ? try? invocation.resolveProgram("notify-send") : nil
    if asked, notifier == nil { _ = try invocation.resolveProgram("notify-send") }
    let files = [(RemindTimer.service, RemindTimer.serviceText(binary: binary, folder: folder,
                                                               within: invocation.value(Commands.withinOption),
                                                               program: program, notify: notifier != nil)),
                 (RemindTimer.timer, RemindTimer.timerText)]
    let out = invocation.out
    if invocation.flag(Commands.dryRunOption) {
        if invocation.global.json {
            out.json(.object([("service", .string(Path.join(directory, RemindTimer.service))),
                              ("timer", .string(Path.join(directory, RemindTimer.timer))),
                              ("written", .array([])), ("enable", .string(RemindTimer.enable))]))
            return .success
        }
        for (name, text) in files {
            out.line("# " + Path.join(directory, name))
            out.write(text)
            out.line()
        }
        return .success
    }
    let fileSystem = invocation.fileSystem
    if !fileSystem.isDirectory(directory) { try fileSystem.createDirectory(directory, intermediates: true) }
    var written: [String] = []
    for (name, text) in files {
        let path = Path.join(directory, name)
        let bytes = Array(text.utf8)
        if let existing = try? fileSystem.readIfPresent(path, followSymlinks: false), existing == bytes { continue }
        let staging = Path.join(directory, ".\(name).tick-\(CurrentProcess.id)")
        try? fileSystem.removeFile(staging)
        do {
            try fileSystem.createFile(staging, contents: bytes, mode: 0o644, sync: true)
            try fileSystem.rename(staging, to: path)
        } catch {
            try? fileSystem.removeFile(staging)
            throw error
        }
        written.append(path)
    }
    if invocation.global.json {
        out.json(.object([("service", .string(Path.join(directory, RemindTimer.service))),
                          ("timer", .string(Path.join(directory, RemindTimer.timer))),
                          ("written", .array(written.map(JSON.string))), ("enable", .string(RemindTimer.enable))]))
        return .success
    }
    for (name, _) in files {
        let path = Path.join(directory, name)
        invocation.say((written.contains(path) ? "Wrote " : "Unchanged ") + path)
    }
    if let notifier {
        invocation.say("Reminders show as desktop notifications (tick remind --notify, with \(notifier)); "
                       + "--exec PROGRAM runs another program instead")
    } else if program == nil {
        invocation.say("No --exec and no notify-send on PATH: reminders reach only the journal "
                       + "(journalctl --user -u tick-remind)")
    }
    invocation.say("To start it: " + RemindTimer.enable)
    return .success
}
