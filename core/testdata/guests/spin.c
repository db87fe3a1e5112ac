/* Loops forever: the run's timeout must kill it. */
int main(void) {
  volatile unsigned long n = 0;
  for (;;) n++;
}
