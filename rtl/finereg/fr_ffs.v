// Find first set: the lowest set bit of v_i (found_o: any bit set; idx_o: its index, N - 1
// when none is set). Up to 64 bits a binary tree (fr_ffs_tree.v, log2(N) 2:1 mux levels);
// wider vectors in two levels: the OR of each 32-bit group, a tree over the groups, the chosen
// group's bits (a 32-bit N/32:1 mux) and a tree over them: about 5 + log2(N/32) + 5 + 5
// levels, and far fewer nodes for Verilator to evaluate than one tree over N leaves.
// N must be a power of two >= 4. Used by fr_status (N = 128), fr_idxdec (64), fr_pcrf (1024).
module fr_ffs #(
  parameter integer N = 128
) (
  input  wire [N-1:0]         v_i,
  output wire                 found_o,
  output wire [$clog2(N)-1:0] idx_o
);
  generate
    if (N <= 64) begin : g_one
      fr_ffs_tree #(.N(N)) u_tree (.v_i(v_i), .found_o(found_o), .idx_o(idx_o));
    end else begin : g_two
      localparam integer NG = N / 32;
      localparam integer GW = $clog2(NG);
      wire [NG-1:0] any;
      genvar g;
      for (g = 0; g < NG; g = g + 1) begin : g_grp
        assign any[g] = |v_i[g*32 +: 32];
      end
      wire [GW-1:0] gsel;
      wire [4:0]    lsel;
      wire          lfound;
      fr_ffs_tree #(.N(NG)) u_grp (.v_i(any), .found_o(found_o), .idx_o(gsel));
      wire [31:0] bits = v_i[gsel*32 +: 32];
      fr_ffs_tree #(.N(32)) u_bit (.v_i(bits), .found_o(lfound), .idx_o(lsel));
      // none set: gsel and lsel are all ones (the trees' "none"), so idx_o is N - 1
      assign idx_o = {gsel, lsel};
      wire unused_ok = lfound;  // equals found_o
    end
  endgenerate
endmodule
