// libFuzzer target: the hall JSON reader and validator (HallFormat.decode).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHallJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "fuzz.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if let decoded = try? HallFormat.decode(source, strict: false) {
        // A hall read is written back and read again to the same hall.
        let again = try? HallFormat.decode(SourceText(name: "again.json", bytes: Array(HallFormat.encodeText(decoded.hall).utf8)))
        if again?.hall != decoded.hall { fatalError("a hall does not survive writing and reading") }
        _ = HallSummary(decoded.hall)
        // A free venue lays out, and taps across it are answered.
        if decoded.hall.isFree, let layout = try? Layout(hall: decoded.hall, zoom: 1, scale: 1) {
            let tester = HitTester(layout: layout)
            for k in 0..<64 {
                _ = tester.hit(pixelX: Double(k * 37 % max(1, layout.width)) + 0.5, pixelY: Double(k * 53 % max(1, layout.height)) + 0.5)
            }
            _ = layout.overlappingSeats()
        }
    }
    return 0
}
