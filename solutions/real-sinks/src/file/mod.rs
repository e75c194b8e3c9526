//! Shape A on a real filesystem: the file sink, its folder layout and its file format.

mod format;
mod layout;
mod sink;
mod staged_file;

pub use format::{check_record, read_complete, trailer};
pub use layout::{Layout, StagingFile, check_job_name, file_name};
pub use sink::FileSink;
pub use staged_file::{Digest, StagedFile};
