//! Morne Plaine.

mod playouts;
