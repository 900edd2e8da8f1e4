// libFuzzer target: the Maoyan importer (both payload shapes, lenient and strict).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMaoyan(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "fuzz.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    _ = try? MaoyanImporter.importHall(source, prices: .bySection([1: 10, 2: 20, 3: 30]), lenient: size % 2 == 0)
    return 0
}
