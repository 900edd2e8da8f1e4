// libFuzzer target: the status-batch reader, and applying what it reads to a hall.
let fuzzHall: Hall? = try? HallFormat.decode("""
{"maxSelectCount":6,"rows":[{"row":1,"price":10,"seats":[{"column":1,"status":0},{"column":2,"status":3},{"column":3,"status":0,"type":"coupleLeft"},{"column":4,"status":0,"type":"coupleRight"}]},{"row":2,"price":20,"seats":[{"column":1,"status":1},{"column":2,"status":2}]}]}
""")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatusBatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = SourceText(name: "fuzz.json", bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    guard let batches = try? StatusBatch.decode(source), let hall = fuzzHall else { return 0 }
    var sync = StatusSync(hall: hall)
    var selection = Selection(ids: [SeatID(section: 1, row: 1, column: 1), SeatID(section: 1, row: 1, column: 3)], in: hall)
    for batch in batches { _ = try? sync.apply(batch, selection: &selection) }
    return 0
}
