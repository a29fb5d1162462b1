// Self-test unit of the co-simulation machinery, not a technique: a W-bit register (W > 64 by
// default) with load and rotate, so that wide ports and wide state (Verilator VlWide) are
// exercised in every mode. C reference: csim/hw/selftest/st_wide.c.
module st_wide #(
  parameter integer W = 100
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         ld_i,   // q <= d_i
  input  wire         rot_i,  // q <= q rotated left by one (when not loading)
  input  wire [W-1:0] d_i,
  output wire [W-1:0] q_o,
  output wire         par_o   // parity of q
);

  reg [W-1:0] q_q /*verilator public_flat_rd*/;
  reg [W-1:0] q_d;

  always @* begin
    q_d = q_q;
    if (ld_i) begin
      q_d = d_i;
    end else if (rot_i) begin
      q_d = {q_q[W-2:0], q_q[W-1]};
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q <= {W{1'b0}};
    end else begin
      q_q <= q_d;
    end
  end

  assign q_o   = q_q;
  assign par_o = ^q_q;

endmodule
