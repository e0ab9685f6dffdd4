// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tick",
    products: [
        .executable(name: "tick", targets: ["tick"]),
        .library(name: "TickFormat", targets: ["TickFormat"]),
        .library(name: "TickCore", targets: ["TickCore"]),
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
        // MemberImportVisibility: the CLI sees only what TickCore declares, not members that
        // TickFormat's extensions would otherwise leak through it.
        // `tick lsp`: the language server, over TickCore's ListBuffer.
        .target(name: "TickLSP", dependencies: ["TickCore"]),
        .executableTarget(name: "tick", dependencies: ["TickCore", "TickLSP"],
                          swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        .testTarget(name: "TickFormatTests", dependencies: ["TickFormat", "TickCore", "CCmarkArena", "TickLSP"], exclude: ["Fixtures"]),
        .testTarget(name: "TickCoreTests", dependencies: ["TickCore", "TickFormat"]),
        .testTarget(name: "TickLSPTests", dependencies: ["TickLSP", "TickCore"]),
        .testTarget(name: "TickCLITests", dependencies: ["TickCore", "TickFormat", "CTickSystem"], exclude: ["Fixtures"]),
    ]
)
