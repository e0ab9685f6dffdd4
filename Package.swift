// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tick",
    products: [
        .executable(name: "tick", targets: ["tick"]),
        .library(name: "TickFormat", targets: ["TickFormat"]),
        .library(name: "TickCore", targets: ["TickCore"]),
        .library(name: "TickCLI", targets: ["TickCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // The cache compresses each list's cold records and text (`ListCache`).
        .systemLibrary(
            name: "CLz4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(name: "CTickSystem"),
        .target(name: "CCmarkArena", dependencies: ["CCmark"]),
        .target(name: "TickFormat", dependencies: ["CCmark", "CCmarkArena"]),
        .target(name: "TickCore", dependencies: ["TickFormat", "CTickSystem", "CLz4"]),
        // `tick lsp`: the language server, over TickCore's ListBuffer.
        .target(name: "TickLSP", dependencies: ["TickCore"]),
        // The command line as a library: a run takes everything from the `Context` it is given, so
        // that tests run it in-process. MemberImportVisibility: it sees only what TickCore declares,
        // not members that TickFormat's extensions would otherwise leak through it.
        .target(name: "TickCLI", dependencies: ["TickCore", "TickLSP"],
                swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The executable: main.swift gathers the process's surroundings and calls TickCLI.
        .executableTarget(name: "tick", dependencies: ["TickCLI", "TickCore"],
                          swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(name: "TickFormatTests", dependencies: ["TickFormat", "TickCore", "CCmarkArena", "TickLSP"], exclude: ["Fixtures"]),
        .testTarget(name: "TickCoreTests", dependencies: ["TickCore", "TickFormat"], exclude: ["Fixtures"]),
        .testTarget(name: "TickLSPTests", dependencies: ["TickLSP", "TickCore"]),
        // The CLI tests run TickCLI in-process, and the `tick` binary where a run needs a process.
        .testTarget(name: "TickCLITests", dependencies: ["TickCLI", "tick", "TickCore", "TickFormat", "CTickSystem"],
                    exclude: ["Fixtures"]),
    ]
)
