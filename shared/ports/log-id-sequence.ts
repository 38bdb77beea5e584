/** The system-wide logId sequence (XXL-JOB's log ids): positive, unique, safe integers. */
export interface LogIdSequence {
  /** Reserves `count` consecutive fresh logIds; returns the first of them. */
  reserve(count: number): Promise<number>;
}
