//! Release builds carry `web/` inside the binary: rebuild when a file there is added,
//! changed or removed (rust-embed alone notices only changes to files it already has).

fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
