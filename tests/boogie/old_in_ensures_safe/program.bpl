var balance: int;
procedure {:entrypoint} main(amount: int)
{
  balance := 10;
  call withdraw(amount);
  assert balance >= 0;
}
procedure withdraw(amount: int)
  modifies balance;
  ensures balance == old(balance) - amount || balance == old(balance);
  ensures balance >= 0;
{
  if (amount <= balance) { balance := balance - amount; }
}
