import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The rig of the vdir sync tests: Debian's `radicale` on a free port of 127.0.0.1 (no
/// authentication, storage in the sandbox), Debian's `vdirsyncer` with a generated config and
/// status folder in the sandbox, and a phone: a python3-caldav client (`PhoneRig.phoneScript`).
/// `stop()` ends the server; `deinit` does it too, so it ends in every outcome of a test.
final class PhoneRig {
    let sandbox: Sandbox
    let port: Int
    /// Radicale's process id; started with posix_spawn, not Foundation's Process, which this
    /// long-lived child stalled when tests started other programs meanwhile.
    private var radicale: pid_t = 0
    private var stopped = false

    /// The folders inside the sandbox: the task folder, the vdir, Radicale's storage.
    static let tasks = "tasks", vdir = "vdir"

    init(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.sandbox = sandbox
        for tool in ["/usr/bin/radicale", "/usr/bin/vdirsyncer"] {
            try #require(FileManager.default.isExecutableFile(atPath: tool),
                         "\(tool) is missing: run `make test-deps`", sourceLocation: sourceLocation)
        }
        port = try Self.freePort()
        try sandbox.makeFolder("storage")
        try sandbox.makeFolder("status")
        try FileManager.default.createDirectory(atPath: sandbox.path(Self.vdir), withIntermediateDirectories: true)
        try sandbox.write("phone.py", Self.phoneScript)
        try sandbox.write("vdirsyncer.conf", """
            [general]
            status_path = "\(sandbox.path("status"))/"

            [pair phone]
            a = "phone_local"
            b = "phone_remote"
            collections = ["from a", "from b"]
            conflict_resolution = "b wins"
            metadata = ["displayname", "color"]

            [storage phone_local]
            type = "filesystem"
            path = "\(sandbox.path(Self.vdir))/"
            fileext = ".ics"

            [storage phone_remote]
            type = "caldav"
            url = "http://127.0.0.1:\(port)/"
            username = "phone"
            password = "phone"

            """)
        let arguments = ["/usr/bin/radicale", "--config", "", "--server-hosts", "127.0.0.1:\(port)", "--auth-type", "none",
                         "--storage-filesystem-folder", sandbox.path("storage"), "--logging-level", "warning"]
        let environment = sandbox.environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, sandbox.path("radicale.log"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        // A test runs on a thread that blocks signals, and a child inherits the mask: unblock them,
        // or Radicale would never see its SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), terminate = sigset_t()
        sigemptyset(&none)
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &terminate)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&radicale, "/usr/bin/radicale", &actions, &attributes, argv, envp)
        try #require(spawned == 0, "radicale could not be started: \(spawned)", sourceLocation: sourceLocation)
        // Ready when it answers HTTP: up to 20 s on a loaded machine.
        let waiter = #"""
            import sys, time, urllib.request, urllib.error
            end = time.time() + 20
            while time.time() < end:
                try:
                    urllib.request.urlopen(sys.argv[1], timeout=1)
                    sys.exit(0)
                except urllib.error.HTTPError:
                    sys.exit(0)
                except Exception:
                    time.sleep(0.05)
            sys.exit(1)
            """#
        let ready = try program("/usr/bin/python3", ["-c", waiter, "http://127.0.0.1:\(port)/.web/"])
        guard ready.status == 0, waitpid(radicale, nil, WNOHANG) == 0 else {
            stop()
            Issue.record("radicale did not start: \(ready) \((try? sandbox.read("radicale.log")) ?? "")", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }

    deinit { stop() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        guard radicale > 0 else { return }
        kill(radicale, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(radicale, &status, WNOHANG) == 0 { usleep(50_000) }
        if waitpid(radicale, &status, WNOHANG) == 0 {
            kill(radicale, SIGKILL)
            _ = waitpid(radicale, &status, 0)
        }
    }

    private static func file(_ path: String) -> URL {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return URL(fileURLWithPath: path)
    }

    /// A port of 127.0.0.1 that nothing listens on: the kernel's choice for port 0.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs a program with the sandbox's environment; `input` on its standard input.
    @discardableResult
    func program(_ path: String, _ arguments: [String], input: String = "",
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = sandbox.environment
        process.currentDirectoryURL = sandbox.root
        let id = UUID().uuidString
        let outPath = sandbox.path(".out-" + id), errPath = sandbox.path(".err-" + id), inPath = sandbox.path(".in-" + id)
        defer { for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) } }
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        let out = try FileHandle(forWritingTo: Self.file(outPath)), err = try FileHandle(forWritingTo: Self.file(errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return TickResult(status: process.terminationStatus,
                          stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
                          stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
    }

    /// `vdirsyncer -c CONFIG ARGS`, which must succeed.
    @discardableResult
    func vdirsyncer(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
        let result = try program("/usr/bin/vdirsyncer", ["-c", sandbox.path("vdirsyncer.conf")] + arguments,
                                 input: String(repeating: "y\n", count: 20), sourceLocation: sourceLocation)
        try #require(result.status == 0, "vdirsyncer \(arguments) failed: \(result)", sourceLocation: sourceLocation)
        return result
    }

    /// A full round: the phone's changes (and a new calendar's name) into the vdir, `tick vdir sync`, the vdir's changes (and
    /// any new collection, its name and colour) out to the server. Returns tick's result.
    ///
    /// `vdirsyncer sync` runs on both sides. `discover` and `metasync` run where they can change something, as a
    /// person runs them after adding a calendar: in the first round, after the phone made a calendar, when the vdir or
    /// vdirsyncer's status changed since the last round, and on the way out when tick's sync added a collection or
    /// changed a `displayname` or `color` file.
    @discardableResult
    func round(_ extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> TickResult {
        let now = try outline()
        let inward = calendarsChanged || now != lastOutline
        if inward { try vdirsyncer(["discover", "phone"], sourceLocation: sourceLocation) }
        try vdirsyncer(["sync", "phone"], sourceLocation: sourceLocation)
        if inward { try vdirsyncer(["metasync", "phone"], sourceLocation: sourceLocation) }
        calendarsChanged = false
        let before = try outline()
        let tick = try sandbox.run(["--dir", Self.tasks, "vdir", "sync", Self.vdir] + extra, sourceLocation: sourceLocation)
        let after = try outline()
        if after.collections != before.collections { try vdirsyncer(["discover", "phone"], sourceLocation: sourceLocation) }
        try vdirsyncer(["sync", "phone"], sourceLocation: sourceLocation)
        if after.metadata != before.metadata { try vdirsyncer(["metasync", "phone"], sourceLocation: sourceLocation) }
        lastOutline = try outline()
        return tick
    }

    /// Whether the phone made a calendar since the last round (set by `phone`).
    private var calendarsChanged = true
    /// The vdir's collections and metadata, and vdirsyncer's status files, at the end of the last round.
    private var lastOutline: Outline?

    /// What decides whether `discover` and `metasync` can change anything: the vdir's collections, their
    /// `displayname` and `color` files, and the names in vdirsyncer's status folder.
    struct Outline: Equatable {
        var collections: [String]
        var metadata: [String: [UInt8]]
        var status: [String]
    }

    func outline() throws -> Outline {
        let collections = try sandbox.names(Self.vdir).filter { !$0.hasPrefix(".") }
        var metadata: [String: [UInt8]] = [:]
        for collection in collections {
            for name in ["displayname", "color"] where sandbox.exists("\(Self.vdir)/\(collection)/\(name)") {
                metadata[collection + "/" + name] = try sandbox.bytes("\(Self.vdir)/\(collection)/\(name)")
            }
        }
        return Outline(collections: collections, metadata: metadata, status: try sandbox.names("status"))
    }

    /// Runs the phone: `phone.py URL ARGS`, which must succeed.
    @discardableResult
    func phone(_ arguments: [String], input: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try phone(batch: [arguments], input: input, sourceLocation: sourceLocation)
    }

    /// Runs several commands of the phone in turn, in one run of `phone.py`, as a phone makes several edits in one
    /// session; all must succeed.
    @discardableResult
    func phone(batch commands: [[String]], input: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        if commands.contains(where: { $0.first == "mkcal" }) { calendarsChanged = true }
        let arguments = Array(commands.joined(separator: ["--then"]))
        let result = try program("/usr/bin/python3", [sandbox.path("phone.py"), "http://127.0.0.1:\(port)/"] + arguments,
                                 input: input, sourceLocation: sourceLocation)
        try #require(result.status == 0, "the phone failed on \(arguments): \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// What the server holds: per calendar, its displayname, color and VTODOs by UID (their text).
    struct Calendar {
        var displayname: String?
        var color: String?
        var todos: [String: String]

        /// The value of `name` in the VTODO of `uid` (unfolded), or nil.
        func value(_ uid: String, _ name: String) -> String? {
            guard let text = todos[uid] else { return nil }
            let unfolded = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            return unfolded.split(separator: "\n").first { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }
                .map { String($0.split(separator: ":", maxSplits: 1).last ?? "") }
        }

        /// The UID of the VTODO whose SUMMARY is `summary`.
        func uid(_ summary: String) -> String? { todos.keys.first { value($0, "SUMMARY") == summary } }
    }

    func server(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Calendar] {
        let data = Data(try phone(["dump"], sourceLocation: sourceLocation).utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]],
                                sourceLocation: sourceLocation)
        return json.mapValues { Calendar(displayname: $0["displayname"] as? String, color: $0["color"] as? String,
                                         todos: $0["todos"] as? [String: String] ?? [:]) }
    }

    static let phoneScript = #"""
# The phone of the vdir sync tests: a CalDAV client (Debian's python3-caldav) acting on Radicale
# as a phone's Reminders app would. Usage: phone.py URL COMMAND ARGS... [--then COMMAND ARGS...]...
#   dump                          every calendar: {id: {displayname, color, todos: {uid: text}}}
#   put CAL UID                   stores the VTODO calendar text on standard input as CAL/UID.ics
#   edit CAL UID NAME VALUE       sets property NAME (a whole content line after the name) in UID's VTODO;
#                                 VALUE "-" removes it
#   delete CAL UID                deletes UID's object
#   mkcal CAL DISPLAYNAME         makes a calendar
import json, sys
import caldav

url = sys.argv[1]
client = caldav.DAVClient(url, username="phone", password="phone")
principal = client.principal()


def calendar(cal_id):
    for c in principal.calendars():
        if c.url.path.rstrip("/").split("/")[-1] == cal_id:
            return c
    raise SystemExit("no calendar " + cal_id)


def find(cal, uid):
    for obj in cal.objects(load_objects=True):
        if ("UID:" + uid) in obj.data.replace("\r\n", "\n").split("\n"):
            return obj
    raise SystemExit("no object " + uid)


def run(command, args):
    if command == "dump":
        out = {}
        for c in principal.calendars():
            props = c.get_properties([caldav.dav.DisplayName(), caldav.elements.ical.CalendarColor()])
            entry = {"displayname": props.get("{DAV:}displayname"),
                     "color": props.get("{http://apple.com/ns/ical/}calendar-color"), "todos": {}}
            for obj in c.objects(load_objects=True):
                text = obj.data
                if text is None:
                    continue
                uid = [l[4:] for l in text.replace("\r\n", "\n").split("\n") if l.startswith("UID:")][0]
                entry["todos"][uid] = text
            out[c.url.path.rstrip("/").split("/")[-1]] = entry
        print(json.dumps(out, sort_keys=True))
    elif command == "put":
        cal = calendar(args[0])
        text = sys.stdin.read()
        client.put(cal.url.join(args[1] + ".ics"), text, {"Content-Type": "text/calendar; charset=utf-8"})
    elif command == "edit":
        cal, uid, name, value = calendar(args[0]), args[1], args[2], args[3]
        obj = find(cal, uid)
        lines = obj.data.replace("\r\n", "\n").split("\n")
        # Unfold, then replace the property inside the first VTODO.
        unfolded = []
        for l in lines:
            if l.startswith((" ", "\t")) and unfolded:
                unfolded[-1] += l[1:]
            else:
                unfolded.append(l)
        out, inside, done = [], 0, False
        for l in unfolded:
            if l == "BEGIN:VTODO":
                inside += 1
            key = l.split(":", 1)[0].split(";", 1)[0]
            if inside == 1 and key == name and name != "BEGIN":
                continue
            if inside == 1 and l == "END:VTODO" and not done:
                if value != "-":
                    out.append(value if value.startswith(name) else name + ":" + value)
                done = True
            out.append(l)
            if l == "END:VTODO":
                inside += 1
        client.put(obj.url, "\r\n".join(out), {"Content-Type": "text/calendar; charset=utf-8"})
    elif command == "delete":
        find(calendar(args[0]), args[1]).delete()
    elif command == "mkcal":
        principal.make_calendar(name=args[1], cal_id=args[0], supported_calendar_component_set=["VTODO"])
    else:
        raise SystemExit("unknown command " + command)


# Commands separated by "--then" run in turn, over one connection.
commands = [[]]
for word in sys.argv[2:]:
    if word == "--then":
        commands.append([])
    else:
        commands[-1].append(word)
for command in commands:
    run(command[0], command[1:])
"""#
}
