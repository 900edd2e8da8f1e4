// swift-tools-version:6.0
// A package that uses SeatMap as a dependency: it defines its own theme and
// snapshot-tests it with SeatMapTesting (run by SeatMap's `make test`).
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "SeatMap", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                .product(name: "SeatMapTesting", package: "SeatMap"),
                .product(name: "SeatMapCore", package: "SeatMap"),
                .product(name: "SeatMapRender", package: "SeatMap"),
            ],
            exclude: ["__Snapshots__", "brand.json", "hall.json"]
        ),
    ]
)
