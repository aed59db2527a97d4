//! The PDB file format, versions 1 and 2 (specified byte by byte in `docs/FORMAT.md`).
//!
//! A file holds one board and goal and one or more tables (usually a whole partition). Opening
//! ([`PdbFile::open`]) reads and checks the header only; [`PdbFile::verify`] checks every
//! payload's checksums; [`PdbFile::load`] brings a table into memory (decompressing it, or
//! memory-mapping it when stored raw). [`write_pdb`] writes through a temporary file that is
//! renamed into place, so a failed write never leaves a partial file under the final name (on
//! Linux the temporary file is anonymous: a killed writer leaves nothing at all).

mod codes;
mod digest;
mod entries;
mod error;
mod header;
mod pending;
mod reader;
mod symmetric;
mod view;
mod writer;

pub use codes::{Compression, Encoding};
pub use digest::Digest;
pub use entries::{encode_entries, EntryBytes, Table};
pub use error::FormatError;
pub use header::{
    Header, TableHeader, FORMAT_VERSION, MAGIC, MAX_HEADER_LEN, MAX_TABLES, PAYLOAD_ALIGN,
};
pub use pending::write_atomically;
pub use reader::{LoadOptions, PdbFile};
pub use view::EntryView;
pub use writer::{
    write_class_pdb, write_pdb, write_pdb_streamed, ClassTableSource, TableShape, TableSource,
    WriteOptions, DEFAULT_ZSTD_JOB_SIZE,
};
