// Image queries of four image types, written to a buffer.
kernel void queries(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                    read_only image1d_buffer_t d, write_only image1d_array_t e, global int* out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_channel_data_type(a);
  out[3] = get_image_channel_order(a);
  const int2 da = get_image_dim(a);
  out[4] = da.x * 1000 + da.y;
  out[5] = get_image_width(b);
  out[6] = get_image_height(b);
  out[7] = get_image_depth(b);
  const int4 db = get_image_dim(b);
  out[8] = (db.x * 1000 + db.y) * 1000 + db.z + db.w;
  out[9] = get_image_channel_data_type(b);
  out[10] = get_image_channel_order(b);
  out[11] = get_image_width(c);
  out[12] = get_image_height(c);
  out[13] = (int)get_image_array_size(c);
  out[14] = get_image_channel_order(c);
  out[15] = get_image_width(d);
  out[16] = get_image_channel_data_type(d);
  out[17] = get_image_channel_order(d);
  out[18] = get_image_width(e);
  out[19] = (int)get_image_array_size(e);
  out[20] = get_image_channel_data_type(e);
  out[21] = get_image_channel_order(e);
}
