// Population count of v_i as a binary tree of adders, each level one bit wider than the one
// below (N = 200: 255 small adders, depth log2(N) adder levels instead of a chain of N).
// Used by larf_amt for the table's occupancy.
module larf_popcnt #(
  parameter integer N = 200
) (
  input  wire [N-1:0]            v_i,
  output wire [$clog2(N+1)-1:0]  cnt_o
);
  localparam integer L  = $clog2(N);    // levels of adders
  localparam integer NP = 1 << L;       // leaves, padded to a power of two
  localparam integer SW = L + 1;        // slot width: a node of level l uses its low l + 1 bits
  localparam integer OW = $clog2(N + 1);

  // nodes of level l start at off(l): level 0 (the leaves) at 0, the root at 2NP-2
  function integer off;
    input integer l;
    begin
      off = 2 * NP - ((2 * NP) >> l);
    end
  endfunction

  // split_var lets Verilator see the tree is acyclic; a slot's bits above its level's width
  // are zero padding that nothing reads
  /* verilator lint_off UNUSEDSIGNAL */
  wire [(2*NP-1)*SW-1:0] s /*verilator split_var*/;
  /* verilator lint_on UNUSEDSIGNAL */
  genvar l, j;
  generate
    for (j = 0; j < NP; j = j + 1) begin : g_leaf
      if (j < N) begin : g_in
        assign s[j*SW +: SW] = {{(SW-1){1'b0}}, v_i[j]};
      end else begin : g_pad
        assign s[j*SW +: SW] = {SW{1'b0}};
      end
    end
    for (l = 1; l <= L; l = l + 1) begin : g_lv
      for (j = 0; j < (NP >> l); j = j + 1) begin : g_nd
        localparam integer G  = off(l) + j;
        localparam integer CL = off(l - 1) + 2 * j;
        localparam integer CR = CL + 1;
        wire [l:0] sum = {1'b0, s[CL*SW +: l]} + {1'b0, s[CR*SW +: l]};
        if (l < L) begin : g_pad
          assign s[G*SW +: SW] = {{(SW-l-1){1'b0}}, sum};
        end else begin : g_root
          assign s[G*SW +: SW] = sum;
        end
      end
    end
  endgenerate
  // the count is at most N, so the root's bits above OW are zero
  assign cnt_o = s[(2*NP-2)*SW +: OW];
endmodule
