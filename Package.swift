// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SeatMap",
    products: [
        .executable(name: "seatmap", targets: ["seatmap"]),
        .executable(name: "seatmap-serve", targets: ["seatmap-serve"]),
        .executable(name: "seatmap-bench", targets: ["seatmap-bench"]),
        .library(name: "SeatMapCore", targets: ["SeatMapCore"]),
        .library(name: "SeatMapLayout", targets: ["SeatMapLayout"]),
        .library(name: "SeatMapRender", targets: ["SeatMapRender"]),
        .library(name: "SeatMapInventory", targets: ["SeatMapInventory"]),
        .library(name: "SeatMapStore", targets: ["SeatMapStore"]),
        .library(name: "SeatMapService", targets: ["SeatMapService"]),
        .library(name: "SeatMapServer", targets: ["SeatMapServer"]),
        .library(name: "SeatMapGolden", targets: ["SeatMapGolden"]),
        .library(name: "SeatMapTesting", targets: ["SeatMapTesting"]),
    ],
    targets: [
        // MARK: System libraries (C stays inside the modules that import these)
        .systemLibrary(
            name: "CCairo",
            // Cairo and Pango in one module. Cairo's flags (its headers,
            // glib's, freetype's, fontconfig's) and HarfBuzz's come from
            // pkg-config; Pango's headers through CPangoHeaders: pangocairo's
            // own flags carry -pthread (from gmodule), which SwiftPM refuses
            // with a warning in every package that depends on SeatMap.
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        // The include path of Pango's headers (/usr/include/pango-1.0), nothing more.
        .target(name: "CPangoHeaders"),

        // SQLite (the local store), libpq (the PostgreSQL client under
        // `--store postgresql://...`) and libmicrohttpd (the HTTP/1.1 server
        // under `seatmap serve`), linked as they are (each module.modulemap
        // links its library). Only SeatMapStore and SeatMapServer use them,
        // so only the seatmap-serve executable loads them: libpq and
        // libmicrohttpd bring TLS, Kerberos and LDAP, 10-15 ms of every
        // process that loads them, which a render does not pay.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),

        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libpng's encode and decode behind plain calls (its longjmp errors stay in C).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),

        // MARK: The PNG encoder's filtering and strip-wise deflate (zlib), run on several cores by SeatMapRender
        .target(name: "CPNGStrips", linkerSettings: [.linkedLibrary("z")]),

        // MARK: Core library: hall model, JSON, validation, rules (Foundation only)
        .target(name: "SeatMapCore", plugins: ["EmbedJSON"]),
        // MARK: Pure geometry: layout, view transform, hit-testing (no Cairo)
        .target(name: "SeatMapLayout", dependencies: ["SeatMapCore"]),
        // MARK: Cairo backend (the shipped themes are embedded at build time)
        .target(name: "SeatMapRender", dependencies: ["SeatMapCore", "SeatMapLayout", "CCairo", "CHarfBuzz", "CPangoHeaders", "CPNG", "CPNGStrips"],
                plugins: ["EmbedJSON"]),
        .executableTarget(name: "seatmap-embed-themes"),
        .plugin(name: "EmbedJSON", capability: .buildTool(), dependencies: ["seatmap-embed-themes"]),

        // MARK: Inventory: the store protocol, a show's transaction, the store in memory (unit tests); no C library
        .target(name: "SeatMapInventory", dependencies: ["SeatMapCore"]),
        // MARK: Inventory stores: SQLite (embedded default), PostgreSQL (several instances); re-exports SeatMapInventory
        .target(name: "SeatMapStore", dependencies: ["SeatMapCore", "SeatMapInventory", "CSQLite", "CLibPQ"]),

        // MARK: Use cases shared by every face: option groups, renders, hits, shows, result JSON
        .target(name: "SeatMapService", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapInventory"]),

        // MARK: The HTTP service (libmicrohttpd): route table → service → JSON
        .target(name: "SeatMapServer", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapService", "SeatMapStore", "CMicroHTTPD", "CZlib"]),

        // MARK: Image comparison for golden tests and `seatmap diff`
        .target(name: "SeatMapGolden", dependencies: ["SeatMapCore", "CPNG"]),

        // MARK: Snapshot tests for other packages (Swift Testing and XCTest)
        .target(name: "SeatMapTesting", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapGolden"]),

        // MARK: Command line: a testable library and a thin executable
        // The executable's own processor pins (render --out-dir), in no library.
        .target(name: "CProcessorPin"),
        // Everything but the stores and the server: `seatmap` loads no SQLite,
        // libpq or libmicrohttpd; a command that needs them runs seatmap-serve.
        .target(name: "SeatMapCLI", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapGolden", "SeatMapInventory", "SeatMapService",
                                                 "CProcessorPin"],
                plugins: ["BuildInfo"]),
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .executableTarget(name: "seatmap", dependencies: ["SeatMapCLI"]),
        // The same command line with the stores and `serve`.
        .target(name: "SeatMapServeCLI", dependencies: ["SeatMapCore", "SeatMapCLI", "SeatMapService", "SeatMapServer", "SeatMapStore", "CMicroHTTPD"]),
        .executableTarget(name: "seatmap-serve", dependencies: ["SeatMapServeCLI"]),

        // MARK: Benchmark: `swift run -c release seatmap-bench` (make bench)
        // The C reference the benchmark times SeatMap's render against: plain Cairo, Cairo's PNG writer.
        .target(name: "CairoReference", dependencies: ["CCairo"]),
        .target(name: "SeatMapBench", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapGolden", "SeatMapService", "SeatMapServer", "SeatMapStore",
                                                    "CairoReference"]),
        .executableTarget(name: "seatmap-bench", dependencies: ["SeatMapBench"]),
        // The same reference as a whole process (seats read from a text file), timed against the whole `seatmap render`.
        .executableTarget(name: "seatmap-cairo-reference", dependencies: ["CairoReference"]),

        // MARK: Test helpers
        .target(name: "SeatMapTestSupport", dependencies: ["SeatMapCore"], path: "Tests/SeatMapTestSupport"),
        // The faces as a test drives them: the CLI in this process, an HTTP client, store locations.
        .target(name: "SeatMapTestClients", dependencies: ["SeatMapCore", "SeatMapCLI", "SeatMapServeCLI", "SeatMapServer", "SeatMapService", "SeatMapStore", "SeatMapTestSupport"],
                path: "Tests/SeatMapTestClients"),

        // MARK: Tests
        .testTarget(name: "SeatMapCoreTests", dependencies: ["SeatMapCore", "SeatMapTestSupport"], exclude: ["Maoyan"]),
        // No unsafe flags anywhere (so other packages can depend on SeatMap by
        // version): the every-pixel sweeps run unoptimised in about 100 s.
        .testTarget(name: "SeatMapLayoutTests", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapTestSupport"]),
        .testTarget(name: "SeatMapRenderTests", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapGolden", "SeatMapTestSupport", "CPNGStrips", "CZlib"]),
        .testTarget(name: "SeatMapGoldenTests", dependencies: ["SeatMapCore", "SeatMapLayout", "SeatMapRender", "SeatMapGolden", "SeatMapTesting",
                                                              "SeatMapTestSupport"],
                    exclude: ["Fixtures", "__Snapshots__"]),
        .testTarget(name: "SeatMapBenchTests", dependencies: ["SeatMapBench", "SeatMapTestSupport"]),
        .testTarget(name: "SeatMapStoreTests", dependencies: ["SeatMapCore", "SeatMapCLI", "SeatMapService", "SeatMapStore", "SeatMapTestClients", "SeatMapTestSupport"]),
        .testTarget(name: "SeatMapServiceTests", dependencies: ["SeatMapCore", "SeatMapCLI", "SeatMapLayout", "SeatMapRender", "SeatMapService", "SeatMapServer",
                                                                "SeatMapStore", "SeatMapTestClients", "SeatMapTestSupport"]),
        .testTarget(name: "SeatMapServerTests", dependencies: ["SeatMapCore", "SeatMapCLI", "SeatMapServer", "SeatMapTestClients", "SeatMapTestSupport"]),
        .testTarget(name: "SeatMapCLITests", dependencies: ["SeatMapCLI", "SeatMapServeCLI", "SeatMapCore", "SeatMapGolden", "SeatMapLayout", "SeatMapRender", "SeatMapStore",
                                                            "SeatMapService", "SeatMapServer", "SeatMapTestClients", "SeatMapTestSupport"]),
    ]
)
