import BinarioDomain

/// Why a GTFS feed was refused: the file, line and column at fault, as its CSV tables report them.
public typealias GTFSError = CSVError
