// libFuzzer target: the hall JSON reader and validator (HallFormat.decode).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHallJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "fuzz.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if let decoded = try? HallFormat.decode(source, strict: false) {
        // A hall read is written back and read again to the same hall.
        let again = try? HallFormat.decode(SourceText(name: "again.json", bytes: Array(HallFormat.encodeText(decoded.hall).utf8)))
        if again?.hall != decoded.hall { fatalError("a hall does not survive writing and reading") }
        _ = HallSummary(decoded.hall)
    }
    return 0
}
