// libFuzzer target: the pretix importer, and export → import of what it reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPretix(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "fuzz.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    let request = ImportRequest(values: ["price": "10"])
    guard let imported = try? PretixImporter().importHall(source, request) else { return 0 }
    // What was imported exports to a plan that imports back with the same seats.
    let plan = PretixExporter.plan(imported.hall, pitch: 36, rowPitch: 36, seatSize: (32, 30))
    let text = JSONWriter.write(plan)
    guard let again = try? PretixImporter().importHall(SourceText(name: "again.json", bytes: Array(text.utf8)), request) else {
        fatalError("an exported plan does not import")
    }
    if HallSummary(again.hall).seats != HallSummary(imported.hall).seats { fatalError("export → import changed the seat count") }
    return 0
}
