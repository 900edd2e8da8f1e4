// libFuzzer target: the points-file reader (hit --points-file).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPoints(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "taps.txt", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if let points = try? PointsFile.parse(source) {
        for p in points where !(p.x.isFinite && p.y.isFinite && abs(p.x) <= PointsFile.maxCoordinate && abs(p.y) <= PointsFile.maxCoordinate) {
            fatalError("a point outside the documented range was accepted: \(p)")
        }
    }
    return 0
}
